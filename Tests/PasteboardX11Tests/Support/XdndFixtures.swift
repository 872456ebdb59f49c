import PasteboardX11

/// What the XDND tests share: a set of interned atoms (100...114, in `XdndAtoms.names` order),
/// windows, types, and the messages of a drag built from them.
enum XdndFixtures {
    static let atoms: XdndAtoms = {
        do { return try XdndAtoms(interned: (100...114).map { Atom($0) }) } catch { fatalError("\(error)") }
    }()

    static let copy = atoms.actionCopy
    static let move = atoms.actionMove

    static let source = WindowID(0x40_0001)
    static let firstTarget = WindowID(0x60_0010)
    static let secondTarget = WindowID(0x80_0020)

    static let png = Atom(500)
    static let uriList = Atom(501)
    static let plainText = Atom(502)
    static let html = Atom(503)

    static let v3 = XdndVersion(rawValue: 3)!
    static let v4 = XdndVersion(rawValue: 4)!
    static let v5 = XdndVersion.newest

    static func point(_ x: Int16, _ y: Int16) -> XdndPoint { XdndPoint(x: x, y: y) }

    static func status(from target: WindowID, accepts: Bool, action: Atom = copy) -> XdndMessage {
        .status(XdndStatus(target: target, accepts: accepts, action: action))
    }

    static func finished(from target: WindowID, succeeded: Bool, action: Atom) -> XdndMessage {
        .finished(XdndFinished(target: target, succeeded: succeeded, action: action))
    }

    /// The Finished a version-3 or -4 target sends: target window only, the rest reserved zeros.
    static func finishedBeforeVersion5(from target: WindowID) -> XdndMessage {
        .finished(XdndFinished(target: target, succeeded: false, action: .none))
    }
}

/// The requesting side of ICCCM selections (ICCCM §2.4–2.7): asks the owner of a selection to
/// convert it, then reads the property it fills — whole, in pieces when large, or streamed
/// through the INCR protocol.
///
/// Every wait on the owner is bounded by `timeout` (an owner that is gone or never answers is a
/// clear error, never a hang) and ends at cancellation (the connection's token, or the calling
/// task's). With XFIXES, an owner that exits or destroys its window mid-transfer is noticed at
/// once instead of at the timeout.
public final class SelectionReader {
    public let connection: X11Connection
    /// The window the owner writes into.
    public let window: WindowID
    /// How long to wait for each answer of the owner: the SelectionNotify, and each INCR chunk.
    public var timeout: Duration
    /// The most bytes one GetProperty reads (a large property is read in several).
    public var readSize = 1 << 20

    private let property: Atom
    private let incr: Atom
    private let targets: Atom
    private var watchedForLoss: Set<Atom> = []

    /// Creates the reader's window on `connection`; enables XFIXES when present.
    public init(connection: X11Connection, timeout: Duration = .seconds(5)) throws(X11Error) {
        self.connection = connection
        self.timeout = timeout
        let atoms = try connection.internAtoms(["PASTEBOARD_SELECTION", "INCR", "TARGETS"])
        (property, incr, targets) = (atoms[0], atoms[1], atoms[2])
        window = try connection.createWindow()
        _ = try? connection.enableXFixes()
    }

    /// The most targets read from an owner's TARGETS: applications offer a few dozen, and a
    /// longer list (sent through INCR, it could grow without end) is refused whole.
    public static let maximumTargets = 1024

    /// The targets the owner of `selection` offers (the TARGETS conversion), as atom names in
    /// the owner's order; at most `maximumTargets`, all read by `deadline` (nil: each answer
    /// within `timeout`, the whole unbounded).
    public func readTargets(selection: String, until deadline: X11Deadline? = nil) throws(X11Error) -> [String] {
        var bytes: [UInt8] = []
        let limit = Self.maximumTargets * 4
        let type = try read(selection: selection, target: "TARGETS", until: deadline) { chunk in
            bytes.append(contentsOf: chunk)
            if bytes.count > limit {
                throw X11Error.malformedFromServer("the owner of \(selection) offers more than \(Self.maximumTargets) targets")
            }
        }.type
        guard type == "ATOM" || type == "TARGETS", bytes.count % 4 == 0 else {
            throw .malformedFromServer("the TARGETS of \(selection) came as \(type) of \(bytes.count) bytes")
        }
        let atoms = PropertyValue(type: .atom, format: 32, bytesAfter: 0, data: bytes).items32.map { Atom($0) }
        return try connection.atomNames(atoms.filter { $0 != .none })
    }

    /// Reads `selection` converted to `target`, handing the bytes to `chunk` as they arrive
    /// (several calls for a large or INCR transfer, none for empty data); returns the type the
    /// owner gave them, the byte count and whether INCR was used. Each answer of the owner
    /// comes within `timeout`, and with `deadline` the whole transfer ends by then: an owner
    /// dripping a byte at a time holds a reader only that long.
    @discardableResult
    public func read(selection: String, target: String, until deadline: X11Deadline? = nil, chunk: ([UInt8]) throws -> Void) throws(X11Error) -> SelectionData {
        let overall = deadline
        let atoms = try connection.internAtoms([selection, target])
        let (selectionAtom, targetAtom) = (atoms[0], atoms[1])
        let owner = try X11Reply.getSelectionOwnerChecked(connection.roundTrip(.getSelectionOwner(selectionAtom), timeout: timeout))
        guard owner != .none else { throw .noOwner(selection: selection) }
        try watchForLoss(selectionAtom)
        let (window, property) = (self.window, self.property)
        connection.discardEvents { event in
            switch event {
            case let .propertyNotify(notify): notify.window == window && notify.atom == property
            case let .selectionNotify(notify): notify.requestor == window
            case let .xfixesSelectionNotify(notify): notify.window == window
            default: false
            }
        }
        try connection.send(.deleteProperty(window: window, property: property))
        try connection.send(.convertSelection(requestor: window, selection: selectionAtom, target: targetAtom, property: property, time: currentTime))
        let event = try connection.nextEvent(deadline: X11Deadline(after: timeout).bounded(by: overall), what: "the owner of \(selection) to convert it to \(target)") { event in
            switch event {
            case let .selectionNotify(notify): notify.requestor == window && notify.selection == selectionAtom
            case let .xfixesSelectionNotify(notify): notify.window == window && notify.selection == selectionAtom && notify.kind != .setSelectionOwner
            default: false
            }
        }
        guard case let .selectionNotify(notify) = event else { throw .ownerGone(selection: selection) }
        guard notify.property != .none else { throw .conversionRefused(selection: selection, target: target) }
        let first = try readWhole(selection: selection, chunk: chunk, isINCRHeader: true)
        guard first.type == incr else {
            return SelectionData(type: try connection.atomNames([first.type])[0], byteCount: first.byteCount, wasIncremental: false)
        }
        return try readIncremental(selection: selectionAtom, name: selection, until: overall, chunk: chunk)
    }

    /// INCR (ICCCM §2.7.2): the header property was deleted by reading it; the owner then
    /// writes each chunk and waits for us to delete it; a zero-length write ends the transfer.
    private func readIncremental(selection: Atom, name: String, until overall: X11Deadline?, chunk: ([UInt8]) throws -> Void) throws(X11Error) -> SelectionData {
        let (window, property) = (self.window, self.property)
        var type: Atom?
        var total = 0
        while true {
            let event = try connection.nextEvent(deadline: X11Deadline(after: timeout).bounded(by: overall), what: "the next INCR chunk of \(name)") { event in
                switch event {
                case let .propertyNotify(notify): notify.window == window && notify.atom == property && notify.isNewValue
                case let .xfixesSelectionNotify(notify): notify.window == window && notify.selection == selection && notify.kind != .setSelectionOwner
                default: false
                }
            }
            guard case .propertyNotify = event else { throw .ownerGone(selection: name) }
            let piece = try readWhole(selection: name, chunk: chunk, isINCRHeader: false)
            // Each read deletes the property, which queues a Deleted notification for our own
            // window: drop them, or a long transfer of small chunks fills the event queue.
            connection.discardEvents { event in
                if case let .propertyNotify(notify) = event { return notify.window == window && !notify.isNewValue }
                return false
            }
            if piece.type == .none { continue }  // a stale notification: the property is not there
            type = type ?? piece.type
            total += piece.byteCount
            if piece.byteCount == 0 { break }
        }
        return SelectionData(type: try connection.atomNames([type ?? .none])[0], byteCount: total, wasIncremental: true)
    }

    /// Reads the whole property (in `readSize` pieces), deleting it at the end. An INCR header
    /// is not passed to `chunk`.
    private func readWhole(selection: String, chunk: ([UInt8]) throws -> Void, isINCRHeader: Bool) throws(X11Error) -> (type: Atom, byteCount: Int) {
        var offset: UInt32 = 0
        var total = 0
        var type = Atom.none
        let units = UInt32(max(1, readSize / 4))
        while true {
            let value: PropertyValue
            do {
                value = try X11Reply.getProperty(connection.roundTrip(
                    .getProperty(window: window, property: property, longOffset: offset, longLength: units, delete: true), timeout: timeout))
            } catch let error as X11Error { throw error } catch { throw .malformedFromServer("\(error)") }
            if offset == 0 {
                type = value.type
                if isINCRHeader, type == incr { return (type, 0) }
            } else if value.type != type {
                throw .malformedFromServer("the property of \(selection) changed type while read")
            }
            if !value.data.isEmpty {
                do { try chunk(value.data) } catch let error as X11Error { throw error } catch { throw .invalidArgument("the chunk handler failed: \(error)") }
            }
            total += value.data.count
            if value.bytesAfter == 0 { return (type, total) }
            guard value.data.count % 4 == 0, !value.data.isEmpty else {
                throw .malformedFromServer("a partial property read of \(value.data.count) bytes with \(value.bytesAfter) after")
            }
            offset += UInt32(value.data.count / 4)
        }
    }

    /// Asks XFIXES (when present) to tell our window when the owner of `selection` exits or
    /// destroys its window, so a transfer fails at once instead of at the timeout.
    private func watchForLoss(_ selection: Atom) throws(X11Error) {
        guard let xfixes = connection.xfixes, !watchedForLoss.contains(selection) else { return }
        try connection.send(XFixes.selectSelectionInput(
            majorOpcode: xfixes.majorOpcode, window: window, selection: selection, mask: [.selectionWindowDestroy, .selectionClientClose]))
        watchedForLoss.insert(selection)
    }
}

/// What a read delivered besides the bytes.
public struct SelectionData: Equatable, Sendable {
    /// The type the owner gave the data (e.g. UTF8_STRING, ATOM, image/png).
    public let type: String
    public let byteCount: Int
    /// Whether the owner sent it through INCR.
    public let wasIncremental: Bool
}

extension X11Reply {
    /// GetSelectionOwner's reply, with decoding errors as X11Error.
    public static func getSelectionOwnerChecked(_ reply: [UInt8]) throws(X11Error) -> WindowID {
        do { return try getSelectionOwner(reply) } catch let error as X11Error { throw error } catch { throw .malformedFromServer("\(error)") }
    }
}

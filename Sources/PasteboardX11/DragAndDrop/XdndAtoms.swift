/// The atoms XDND names its properties, selection, messages and actions with (XDND spec,
/// "Atoms and Properties", "Actions"): they are interned at run time, so every message is
/// decoded and encoded against one set of them.
public struct XdndAtoms: Equatable, Sendable {
    /// XdndAware: the property on a top-level window holding the highest version it speaks.
    public let aware: Atom
    /// XdndProxy: the property naming the window that receives a window's messages (v4).
    public let proxy: Atom
    /// XdndSelection: the selection the target converts to read the dragged data.
    public let selection: Atom
    /// XdndTypeList: the source window's property listing every type when there are more than three.
    public let typeList: Atom
    public let enter: Atom
    public let position: Atom
    public let status: Atom
    public let leave: Atom
    public let drop: Atom
    public let finished: Atom
    public let actionCopy: Atom
    public let actionMove: Atom
    public let actionLink: Atom
    public let actionAsk: Atom
    public let actionPrivate: Atom

    /// The atoms' names in the order `init(interned:)` takes them, for one InternAtom each.
    public static let names = [
        "XdndAware", "XdndProxy", "XdndSelection", "XdndTypeList",
        "XdndEnter", "XdndPosition", "XdndStatus", "XdndLeave", "XdndDrop", "XdndFinished",
        "XdndActionCopy", "XdndActionMove", "XdndActionLink", "XdndActionAsk", "XdndActionPrivate",
    ]

    /// The atoms the server interned for `names`, in that order. Refuses a list of another
    /// length, None among them, or one atom twice: messages would then be mistaken for each other.
    public init(interned atoms: [Atom]) throws(X11Error) {
        guard atoms.count == Self.names.count else {
            throw .invalidArgument("XDND needs \(Self.names.count) atoms, not \(atoms.count)")
        }
        guard !atoms.contains(.none), Set(atoms).count == atoms.count else {
            throw .invalidArgument("XDND's atoms must be distinct and not None")
        }
        aware = atoms[0]; proxy = atoms[1]; selection = atoms[2]; typeList = atoms[3]
        enter = atoms[4]; position = atoms[5]; status = atoms[6]; leave = atoms[7]; drop = atoms[8]; finished = atoms[9]
        actionCopy = atoms[10]; actionMove = atoms[11]; actionLink = atoms[12]; actionAsk = atoms[13]; actionPrivate = atoms[14]
    }

    /// The action atom that asks for or reports `operation`.
    public func action(for operation: XdndOperation) -> Atom {
        switch operation {
        case .copy: actionCopy
        case .move: actionMove
        }
    }

    /// The operation an action atom names, or nil for the actions we do not perform
    /// (link, ask, private), None and atoms that are no action.
    public func operation(for action: Atom) -> XdndOperation? {
        switch action {
        case actionCopy: .copy
        case actionMove: .move
        default: nil
        }
    }
}

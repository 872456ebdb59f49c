/// What a drop does with the data, of XDND's actions the ones the project's drag sessions know
/// (XdndActionCopy, XdndActionMove; link, ask and private have no counterpart): the bridge maps
/// these onto the library's `DragOperation` one for one.
public enum XdndOperation: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The target gets a copy; the source keeps its original.
    case copy
    /// The target gets the data and the source deletes its original, once a finished drop says so.
    case move

    /// "copy" or "move".
    public var description: String { rawValue }
}

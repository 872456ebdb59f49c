/// A drag the target session is receiving: its source, version and offered types, and what
/// the last XdndStatus answered.
public struct XdndIncomingDrag: Hashable, Sendable {
    /// Where the drag stands.
    public enum Phase: Hashable, Sendable {
        /// The Enter said there are more than three types; the XdndTypeList is being read.
        case awaitingTypeList
        /// Positions are being answered.
        case dragging
        /// Dropped and accepted: the caller is converting XdndSelection.
        case fetching
    }

    public let source: WindowID
    public let version: XdndVersion
    /// The offered types, best first: the Enter's, or the XdndTypeList's once read.
    public internal(set) var types: [Atom]
    public internal(set) var phase: Phase = .dragging
    /// The type `negotiate` chose among `types`, nil when none is acceptable.
    public internal(set) var chosenType: Atom?
    /// The operation the last XdndStatus accepted, nil when it refused (or before the first Position).
    public internal(set) var operation: XdndOperation?
    /// The last XdndPosition (its point for the drop zone's highlight, its time for a preview conversion).
    public internal(set) var lastPosition: XdndPosition?

    init(source: WindowID, version: XdndVersion, types: [Atom]) {
        self.source = source
        self.version = version
        self.types = types
    }
}

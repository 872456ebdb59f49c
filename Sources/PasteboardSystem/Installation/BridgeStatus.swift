/// What the desktop bridge is doing, as `pb bridge` shows it: written by the bridge (and by the
/// daemon when it starts none) to `BridgeStatusFile`, beside the daemon's socket.
///
/// A file rather than a protocol message: the bridge is a separate process, and whether it
/// runs at all is what a user asks first; the file's lock answers that even when the bridge has
/// died without a word.
public struct BridgeStatus: Sendable, Equatable, Codable {
    /// The bridge's overall state.
    public enum State: String, Sendable, Codable {
        /// Connected to a display and to the daemon, mirroring the selections.
        case bridging
        /// Waiting for a display or the daemon to come (back): `reason` says which.
        case waiting
        /// Not bridging and not going to: `reason` says why (no display, turned off).
        case off
    }

    /// One desktop selection and its pasteboard.
    public struct Selection: Sendable, Equatable, Codable {
        /// `clipboard` or `primary`.
        public var selection: String
        /// The pasteboard it mirrors: `general` or `primary`.
        public var pasteboard: String
        /// Who owns the desktop selection: `pasteboard` (the bridge offers the pasteboard's
        /// item), `desktop` (another client; its copy was imported), or `none`.
        public var owner: String
        /// The pasteboard's change count the owner's content is (the import's, or the exported one).
        public var changeCount: Int?
        /// Whether the bridge has brought in what the desktop held when it connected (imported
        /// it, or found nothing to import): until then the daemon holds reads of the pasteboard
        /// back, for a bounded time, so the first paste is not the content of before.
        public var settled: Bool?

        public init(selection: String, pasteboard: String, owner: String, changeCount: Int? = nil, settled: Bool? = nil) {
            self.selection = selection
            self.pasteboard = pasteboard
            self.owner = owner
            self.changeCount = changeCount
            self.settled = settled
        }
    }

    /// The reason of a bridge's `waiting` status before it has tried its display.
    public static let startingReason = "starting"

    /// The process that wrote the status (the bridge, or the daemon for `off`).
    public var pid: Int32
    public var state: State
    /// The display bridged or waited for: an X11 display name (`:0`) or a Wayland socket path.
    public var display: String?
    /// `x11`, `ext-data-control-v1` or `zwlr-data-control-unstable-v1`.
    public var displayProtocol: String?
    /// Why the state is `waiting` or `off`, or a note about a display not used.
    public var reason: String?
    public var selections: [Selection]

    public init(pid: Int32, state: State, display: String? = nil, displayProtocol: String? = nil, reason: String? = nil, selections: [Selection] = []) {
        self.pid = pid
        self.state = state
        self.display = display
        self.displayProtocol = displayProtocol
        self.reason = reason
        self.selections = selections
    }

    enum CodingKeys: String, CodingKey {
        case pid, state, display, displayProtocol = "protocol", reason, selections
    }
}

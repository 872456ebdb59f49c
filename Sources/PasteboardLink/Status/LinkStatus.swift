/// What one link is doing, as `pb link --status` shows it: written by its `pb link` process
/// to its `LinkStatusFile`, beside the daemon's socket, as the bridge writes its status.
public struct LinkStatus: Sendable, Equatable, Codable {
    /// Where the link is in its life.
    public enum State: String, Sendable, Codable {
        /// Starting ssh, or waiting for the other end's hello.
        case connecting
        /// Linked: changes cross.
        case up
        /// The link dropped or failed; the next attempt comes after a back-off (`retryIn`).
        case retrying
    }

    /// Which way a transfer's bytes go.
    public enum Direction: String, Sendable, Codable {
        /// Fetched from the other machine (a paste here).
        case incoming
        /// Sent to the other machine (a paste there).
        case outgoing
    }

    /// One transfer in flight.
    public struct Transfer: Sendable, Equatable, Codable {
        public var id: UInt32
        public var pasteboard: String
        public var type: String
        public var direction: Direction
        public var bytes: Int
    }

    /// The destination (`[USER@]HOST`), or `served` for the end ssh started.
    public var destination: String
    /// The `pb link` process.
    public var pid: Int32
    public var state: State
    /// When the state last changed, in seconds since 1970.
    public var since: Double
    /// The other end's machine name and id, once linked.
    public var peer: String?
    public var peerMachine: String?
    public var peerSoftware: String?
    /// The pasteboards both ends share.
    public var shared: [String] = []
    /// The last ping's round trip, in microseconds.
    public var latencyMicroseconds: Int?
    /// Changes sent to, and written from, the other end, and those of the other end's that lost
    /// to a later change here (`superseded`).
    public var changesSent = 0
    public var changesReceived = 0
    public var changesSuperseded = 0
    /// Bytes of frames sent and received over the link.
    public var bytesSent = 0
    public var bytesReceived = 0
    /// Transfers in flight.
    public var transfers: [Transfer] = []
    /// Why the link last failed, when it did.
    public var lastError: String?
    /// Seconds until the next attempt, while `retrying`.
    public var retryIn: Double?

    public init(destination: String, pid: Int32, state: State, since: Double) {
        self.destination = destination
        self.pid = pid
        self.state = state
        self.since = since
    }

    mutating func linked(to peer: LinkHello, sharing shared: [String]) {
        self.peer = peer.name
        self.peerMachine = peer.machine
        self.peerSoftware = peer.software
        self.shared = shared
        state = .up
        lastError = nil
        retryIn = nil
    }

    mutating func began(id: UInt32, _ type: String, pasteboard: String, direction: Direction) {
        transfers.append(Transfer(id: id, pasteboard: pasteboard, type: type, direction: direction, bytes: 0))
    }

    mutating func progress(id: UInt32, bytes: Int) {
        if let index = transfers.firstIndex(where: { $0.id == id }) { transfers[index].bytes = bytes }
    }

    mutating func ended(id: UInt32) {
        transfers.removeAll { $0.id == id }
    }
}

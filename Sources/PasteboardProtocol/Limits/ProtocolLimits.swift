/// The protocol version this build speaks, and the limits both sides assume before the handshake.
public enum ProtocolVersion {
    /// The version sent in `hello` and `welcome`. Peers with different versions refuse each other.
    public static let current: Int = 1
}

/// Sizes fixed or defaulted by protocol v1 (see pasteboard-protocol(7), FRAMING and FLOW CONTROL).
public enum ProtocolLimits {
    /// Bytes of frame header after the length field: kind (1), flags (1), request id (4).
    public static let headerLength = 6
    /// The length field itself.
    public static let lengthFieldSize = 4
    /// The default and largest maximum frame length (the value of the length field), 1 MiB.
    public static let defaultMaxFrameLength = 1 << 20
    /// Every peer accepts frames of at least this length, even before the handshake.
    public static let minimumMaxFrameLength = 64 << 10
    /// The default flow-control window per request and direction, in data bytes.
    public static let defaultWindow = 4 << 20
    /// Every daemon's window is at least this: a client may send this much of a stream's data
    /// before the `welcome` that gives the real window has arrived.
    public static let minimumWindow = 64 << 10
    /// The chunk size senders of bulk data use (well under the frame limit).
    public static let preferredChunkSize = 256 << 10

    /// The most data bytes a sender puts in one frame to a peer that accepts frames of up to
    /// `maxFrameLength` bytes: the preferred chunk, or less when the peer's frames are shorter.
    public static func dataChunkLimit(maxFrameLength: Int) -> Int {
        min(preferredChunkSize, maxFrameLength) - headerLength
    }
    /// Request ids at or above this value are started by the daemon, below by the client.
    public static let daemonRequestIDBase: UInt32 = 0x8000_0000
}

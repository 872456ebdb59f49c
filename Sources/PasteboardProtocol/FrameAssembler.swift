import NIOCore

/// Cuts a connection's inbound bytes into frames, in order, keeping the bytes of a frame that
/// has not arrived whole until the rest comes.
///
/// Each frame's payload is a slice of the bytes it arrived in (no copy). A stream that breaks
/// the framing rules (`FrameCodec.decode`) throws once, as soon as the header shows it; the
/// bytes after that are ignored, for the connection is over.
struct FrameAssembler {
    /// The largest length field accepted.
    let maxFrameLength: Int
    /// The bytes of an incomplete frame; nil when the last bytes ended on a frame boundary.
    private var pending: ByteBuffer?
    /// Whether the stream broke the framing rules.
    private var broken = false

    init(maxFrameLength: Int) {
        self.maxFrameLength = maxFrameLength
    }

    /// Hands `deliver` every frame completed by `bytes`, in order, then keeps the rest. Throws
    /// when the stream breaks the framing rules (after delivering the frames before the fault).
    mutating func receive(_ bytes: ByteBuffer, deliver: (Frame) -> Void) throws(FrameError) {
        guard !broken else { return }
        var buffer: ByteBuffer
        if var pending {
            self.pending = nil  // so the append below does not copy the storage
            pending.writeImmutableBuffer(bytes)
            buffer = pending
        } else {
            buffer = bytes
        }
        do {
            while let frame = try FrameCodec.decode(from: &buffer, maxFrameLength: maxFrameLength) {
                deliver(frame)
            }
        } catch {
            broken = true
            throw error
        }
        guard buffer.readableBytes > 0 else { return }
        // A frame is under way: room for all of it now (up to the default maximum, whatever a
        // peer's header claims), not a copy per read as it grows.
        if let length = buffer.getInteger(at: buffer.readerIndex, as: UInt32.self) {
            let whole = ProtocolLimits.lengthFieldSize + min(Int(length), ProtocolLimits.defaultMaxFrameLength)
            if whole > buffer.readableBytes { buffer.reserveCapacity(minimumWritableBytes: whole - buffer.readableBytes) }
        }
        pending = buffer
    }
}

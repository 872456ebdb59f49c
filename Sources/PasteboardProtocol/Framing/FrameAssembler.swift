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
        var bytes = bytes
        do {
            if var pending {
                self.pending = nil  // so the appends below write in place
                // The frame under way takes just the bytes it lacks; the frames after it are cut
                // straight out of `bytes`, which is not copied.
                while true {
                    if let frame = try FrameCodec.decode(from: &pending, maxFrameLength: maxFrameLength) {
                        deliver(frame)
                        break
                    }
                    guard bytes.readableBytes > 0 else {
                        self.pending = pending
                        return
                    }
                    let lacking = if let length = pending.getInteger(at: pending.readerIndex, as: UInt32.self) {
                        ProtocolLimits.lengthFieldSize + Int(length) - pending.readableBytes
                    } else {
                        ProtocolLimits.lengthFieldSize - pending.readableBytes
                    }
                    pending.writeImmutableBuffer(bytes.readSlice(length: min(lacking, bytes.readableBytes))!)
                }
            }
            while let frame = try FrameCodec.decode(from: &bytes, maxFrameLength: maxFrameLength) {
                deliver(frame)
            }
        } catch {
            broken = true
            throw error
        }
        guard bytes.readableBytes > 0 else { return }
        // A frame is under way: its bytes so far go into a buffer of its own with room for all of
        // it (up to the default maximum, whatever a peer's header claims), so the read buffer
        // they came in is not held, and the rest is appended in place.
        let whole = bytes.getInteger(at: bytes.readerIndex, as: UInt32.self).map {
            ProtocolLimits.lengthFieldSize + min(Int($0), ProtocolLimits.defaultMaxFrameLength)
        } ?? ProtocolLimits.lengthFieldSize
        var kept = ByteBufferAllocator().buffer(capacity: max(whole, bytes.readableBytes))
        kept.writeImmutableBuffer(bytes)
        pending = kept
    }
}

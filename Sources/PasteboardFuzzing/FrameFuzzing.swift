import NIOCore
import PasteboardProtocol

/// The frame decoder's invariants.
///
/// The input is a byte stream. It is decoded twice: all at once, and one byte at a time as if
/// each byte arrived in its own read (discarding consumed bytes, as NIO's decoder does). Both must
/// yield the same frames and end the same way. Every decoded frame must re-encode to exactly the
/// bytes it was decoded from and respect the maximum frame length, and a decode that returns nil
/// or throws must consume nothing.
enum FrameFuzzing {
    /// The largest frame the fuzzed decoder accepts: the protocol's default.
    static let maxFrameLength = ProtocolLimits.defaultMaxFrameLength

    /// How decoding a stream stopped.
    enum End: Equatable, CustomStringConvertible {
        /// The decoder asked for more bytes; `pending` bytes were left unconsumed.
        case needsMoreBytes(pending: Int)
        /// The decoder rejected the stream.
        case failed(FrameError)

        var description: String {
            switch self {
            case .needsMoreBytes(let pending): "then needs more bytes (\(pending) pending)"
            case .failed(let error): "then fails: \(error)"
            }
        }
    }

    /// The frames a stream decoded to, and how it stopped.
    struct Decoded: Equatable {
        var frames: [Frame] = []
        var end: End = .needsMoreBytes(pending: 0)
    }

    /// Checks `input` as a stream; returns what it decoded to.
    static func run(_ input: UnsafeRawBufferPointer) -> String {
        let whole = decodeAtOnce(ByteBuffer(bytes: input))
        let trickled = decodeByteByByte(input)
        if trickled != whole {
            invariantViolated(.frames, "byte-by-byte decoding gave \(summary(trickled)), all at once \(summary(whole))")
        }
        return summary(whole)
    }

    /// Decodes every frame in `stream`, checking each step.
    static func decodeAtOnce(_ stream: ByteBuffer) -> Decoded {
        var buffer = stream
        var decoded = Decoded()
        while true {
            guard let step = decodeChecked(&buffer) else {
                decoded.end = .needsMoreBytes(pending: buffer.readableBytes)
                return decoded
            }
            switch step {
            case .success(let frame): decoded.frames.append(frame)
            case .failure(let error):
                decoded.end = .failed(error)
                return decoded
            }
        }
    }

    /// Appends `input` one byte at a time, decoding whatever is complete after each byte.
    static func decodeByteByByte(_ input: UnsafeRawBufferPointer) -> Decoded {
        var buffer = ByteBuffer()
        var decoded = Decoded()
        for byte in input {
            buffer.writeInteger(byte)
            while let step = decodeChecked(&buffer) {
                switch step {
                case .success(var frame):
                    // A copy of the payload, so the stream's storage stays unshared and appending stays cheap.
                    frame.payload = ByteBuffer(bytes: frame.payload.readableBytesView)
                    decoded.frames.append(frame)
                    buffer.discardReadBytes()
                case .failure(let error):
                    decoded.end = .failed(error)
                    return decoded
                }
            }
        }
        decoded.end = .needsMoreBytes(pending: buffer.readableBytes)
        return decoded
    }

    /// One call of the decoder, with the invariants of a single step checked; nil when it needs more bytes.
    static func decodeChecked(_ buffer: inout ByteBuffer) -> Result<Frame, FrameError>? {
        let before = buffer
        let frame: Frame?
        do {
            frame = try FrameCodec.decode(from: &buffer, maxFrameLength: maxFrameLength)
        } catch {
            if buffer.readerIndex != before.readerIndex {
                invariantViolated(.frames, "a rejected frame consumed \(buffer.readerIndex - before.readerIndex) bytes")
            }
            return .failure(error)
        }
        guard let frame else {
            if buffer.readerIndex != before.readerIndex {
                invariantViolated(.frames, "an incomplete frame consumed \(buffer.readerIndex - before.readerIndex) bytes")
            }
            if let length = before.getInteger(at: before.readerIndex, as: UInt32.self),
                before.readableBytes >= ProtocolLimits.lengthFieldSize + Int(length)
            {
                invariantViolated(.frames, "a complete \(length)-byte frame was reported as incomplete")
            }
            return nil
        }
        let consumed = buffer.readerIndex - before.readerIndex
        if consumed != ProtocolLimits.lengthFieldSize + frame.length {
            invariantViolated(.frames, "a frame of length \(frame.length) consumed \(consumed) bytes")
        }
        if frame.length > maxFrameLength || frame.length < ProtocolLimits.headerLength {
            invariantViolated(.frames, "decoded a frame of length \(frame.length), outside \(ProtocolLimits.headerLength)...\(maxFrameLength)")
        }
        var reencoded = ByteBuffer()
        FrameCodec.encode(frame, into: &reencoded)
        if reencoded.readableBytesView != before.readableBytesView.prefix(consumed) {
            invariantViolated(.frames, "a decoded frame re-encodes to different bytes")
        }
        checkLimit(of: frame, encoded: reencoded)
        return .success(frame)
    }

    /// The frame decodes with a limit of exactly its length and is too large for one byte less.
    static func checkLimit(of frame: Frame, encoded: ByteBuffer) {
        var exact = encoded
        guard (try? FrameCodec.decode(from: &exact, maxFrameLength: frame.length)) == frame else {
            invariantViolated(.frames, "a frame of length \(frame.length) is refused with a limit of \(frame.length)")
        }
        var tight = encoded
        do {
            _ = try FrameCodec.decode(from: &tight, maxFrameLength: frame.length - 1)
            invariantViolated(.frames, "a frame of length \(frame.length) is accepted with a limit of \(frame.length - 1)")
        } catch {
            guard error == .frameTooLarge(length: frame.length, maximum: frame.length - 1) else {
                invariantViolated(.frames, "a frame of length \(frame.length) over the limit fails with '\(error)'")
            }
        }
    }

    /// "3 frames (message #1 12 bytes, …), then needs more bytes (2 pending)".
    static func summary(_ decoded: Decoded) -> String {
        let frames = decoded.frames.map { "\($0.kind) #\($0.requestID) \($0.payload.readableBytes) bytes" }
        let count = decoded.frames.count == 1 ? "1 frame" : "\(decoded.frames.count) frames"
        let list = frames.isEmpty ? "" : " (\(frames.prefix(5).joined(separator: ", "))\(frames.count > 5 ? ", …" : ""))"
        return "\(count)\(list), \(decoded.end)"
    }
}

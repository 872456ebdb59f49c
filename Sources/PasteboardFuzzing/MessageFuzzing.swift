import NIOCore
import PasteboardProtocol

/// The message decoder's invariants.
///
/// The input is a message frame's payload. The decoder either returns a message or throws
/// `malformed-message` / `unknown-message` with a non-empty explanation. A decoded message must
/// encode (the encoder cannot fail on a value the decoder produced), and the encoding must decode
/// to an equal message, also when it travels the whole wire path in a frame.
enum MessageFuzzing {
    /// The codes `MessageCodec.decode(_:)` may throw.
    static let rejectionCodes: Set<ErrorCode> = [.malformedMessage, .unknownMessage]

    /// Checks `input` as a message payload; returns what it decoded to.
    static func run(_ input: UnsafeRawBufferPointer) -> String {
        let message: Message
        do {
            message = try MessageCodec.decode(ByteBuffer(bytes: input))
        } catch {
            if !rejectionCodes.contains(error.code) {
                invariantViolated(.messages, "the decoder threw '\(error.code.rawValue)': \(error.message)")
            }
            if error.message.isEmpty {
                invariantViolated(.messages, "the decoder threw '\(error.code.rawValue)' without a message")
            }
            return "rejected, \(error.code.rawValue): \(error.message)"
        }
        checkRoundTrip(message)
        return "decoded '\(message.op)'"
    }

    /// `message` → JSON → frame → bytes → frame → message gives `message` back.
    static func checkRoundTrip(_ message: Message) {
        let payload = MessageCodec.encode(message)
        let again: Message
        do {
            again = try MessageCodec.decode(payload)
        } catch {
            invariantViolated(.messages, "re-encoded '\(message.op)' does not decode: \(error.message)")
        }
        if again != message {
            invariantViolated(.messages, "'\(message.op)' changes in a round trip: \(message) became \(again)")
        }
        var wire = ByteBuffer()
        FrameCodec.encode(.message(message, requestID: 1), into: &wire)
        let framed: Message?
        do {
            framed = try FrameCodec.decode(from: &wire, maxFrameLength: .max)?.decodeMessage()
        } catch {
            invariantViolated(.messages, "framed '\(message.op)' does not decode: \(error)")
        }
        if framed != message {
            invariantViolated(.messages, "'\(message.op)' changes on the wire: \(message) became \(String(describing: framed))")
        }
    }
}

public import NIOCore
import PasteboardJSON
public import PasteboardProtocol

/// JSON encoding of link messages: one object, `op` plus the payload's fields, as the daemon's
/// messages are encoded (`MessageCodec`); unknown members are ignored.
public enum LinkMessageCodec {
    /// The payload of a message frame carrying `message`.
    public static func encode(_ message: LinkMessage) -> ByteBuffer {
        var writer = JSONObjectWriter(op: message.op)
        switch message {
        case .hello(let value): value.writeMembers(to: &writer)
        case .offer(let value): value.writeMembers(to: &writer)
        case .clear(let value): value.writeMembers(to: &writer)
        case .fetch(let value): value.writeMembers(to: &writer)
        case .header(let value): value.writeMembers(to: &writer)
        case .credit(let value): value.writeMembers(to: &writer)
        case .error(let value): value.writeMembers(to: &writer)
        case .ping(let value), .pong(let value): value.writeMembers(to: &writer)
        case .cancel: break
        }
        writer.close()
        return ByteBuffer(bytes: writer.output)
    }

    /// The message a frame's payload holds; throws `malformed-message` or `unknown-message`.
    public static func decode(_ payload: ByteBuffer) throws(ProtocolError) -> LinkMessage {
        var failure: ProtocolError?
        let message = payload.withUnsafeReadableBytes { bytes -> LinkMessage? in
            do throws(ProtocolError) {
                return try decode(bytes)
            } catch {
                failure = error
                return nil
            }
        }
        guard let message else { throw failure! }
        return message
    }

    private static func decode(_ bytes: UnsafeRawBufferPointer) throws(ProtocolError) -> LinkMessage {
        let tape: JSONTape
        do {
            tape = try JSONTape(bytes)
        } catch {
            throw ProtocolError(.malformedMessage, "payload is not JSON: \(error)")
        }
        guard tape.entries[0].kind == .object else { throw ProtocolError(.malformedMessage, "payload is not a JSON object") }
        var reader = JSONObjectReader(tape: tape, object: 0)
        var op = ""
        let message: LinkMessage?
        do {
            try reader.member("op", &op)
            switch op {
            case "link-hello": message = .hello(try LinkHello(reading: &reader))
            case "offer": message = .offer(try LinkOffer(reading: &reader))
            case "link-clear": message = .clear(try LinkClear(reading: &reader))
            case "fetch": message = .fetch(try LinkFetch(reading: &reader))
            case "fetched": message = .header(try LinkHeader(reading: &reader))
            case "credit": message = .credit(try Credit(reading: &reader))
            case "cancel": message = .cancel
            case "error": message = .error(try ProtocolError(reading: &reader))
            case "ping": message = .ping(try LinkPing(reading: &reader))
            case "pong": message = .pong(try LinkPing(reading: &reader))
            default: message = nil
            }
        } catch {
            throw ProtocolError(.malformedMessage, error.description)
        }
        guard let message else { throw ProtocolError(.unknownMessage, "unknown link message op '\(op.prefix(64))'") }
        return message
    }
}

extension Frame {
    /// A message frame carrying the link message `message` on `requestID`.
    public static func link(_ message: LinkMessage, requestID: UInt32) -> Frame {
        Frame(kind: .message, requestID: requestID, payload: LinkMessageCodec.encode(message))
    }
}

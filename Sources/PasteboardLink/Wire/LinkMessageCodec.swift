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
        try MessageCodec.decodeObject(payload) { op, reader throws(JSONError) -> LinkMessage? in
            switch op {
            case "link-hello": .hello(try LinkHello(reading: &reader))
            case "offer": .offer(try LinkOffer(reading: &reader))
            case "link-clear": .clear(try LinkClear(reading: &reader))
            case "fetch": .fetch(try LinkFetch(reading: &reader))
            case "fetched": .header(try LinkHeader(reading: &reader))
            case "credit": .credit(try Credit(reading: &reader))
            case "cancel": .cancel
            case "error": .error(try ProtocolError(reading: &reader))
            case "ping": .ping(try LinkPing(reading: &reader))
            case "pong": .pong(try LinkPing(reading: &reader))
            default: nil
            }
        }
    }
}

extension Frame {
    /// A message frame carrying the link message `message` on `requestID`.
    public static func link(_ message: LinkMessage, requestID: UInt32) -> Frame {
        Frame(kind: .message, requestID: requestID, payload: LinkMessageCodec.encode(message))
    }
}

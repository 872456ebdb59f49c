public import NIOCore
public import PasteboardJSON
import PasteboardTypes

/// JSON encoding of control messages: one object, `op` plus the payload's fields, each payload
/// written and read through its one members list (`JSONObjectCoding`).
/// Unknown members are ignored (so later versions may add optional fields).
public enum MessageCodec {
    /// Encodes `message` as the UTF-8 JSON payload of a message frame.
    public static func encode(_ message: Message) -> ByteBuffer {
        var writer = JSONObjectWriter(op: message.op)
        message.writePayload(to: &writer)
        writer.close()
        return ByteBuffer(bytes: writer.output)
    }

    /// Decodes a message frame's payload. Throws `malformed-message` or `unknown-message`.
    public static func decode(_ payload: ByteBuffer) throws(ProtocolError) -> Message {
        try decodeObject(payload) { op, reader throws(JSONError) in try Message(op: op, reading: &reader) }
    }

    /// Decodes the payload in `bytes`.
    static func decode(_ bytes: UnsafeRawBufferPointer) throws(ProtocolError) -> Message {
        try decodeObject(bytes) { op, reader throws(JSONError) in try Message(op: op, reading: &reader) }
    }

    /// A payload of the protocol's JSON form (one object, `op` first among its members) read by
    /// `read`, which makes the value `op` names of the rest (nil for an op it does not know):
    /// the one decoding the daemon's messages and a link's share. Throws `malformed-message` or
    /// `unknown-message`.
    public static func decodeObject<Value>(
        _ payload: ByteBuffer, _ read: (String, inout JSONObjectReader) throws(JSONError) -> Value?
    ) throws(ProtocolError) -> Value {
        // No `Result`: its generic metadata would be instantiated at first use, in every `pb` run.
        var failure: ProtocolError?
        let value = payload.withUnsafeReadableBytes { bytes -> Value? in
            do throws(ProtocolError) {
                return try decodeObject(bytes, read)
            } catch {
                failure = error
                return nil
            }
        }
        guard let value else { throw failure! }
        return value
    }

    static func decodeObject<Value>(
        _ bytes: UnsafeRawBufferPointer, _ read: (String, inout JSONObjectReader) throws(JSONError) -> Value?
    ) throws(ProtocolError) -> Value {
        let tape: JSONTape
        do {
            tape = try JSONTape(bytes)
        } catch {
            throw ProtocolError(.malformedMessage, "payload is not JSON: \(error)")
        }
        guard tape.entries[0].kind == .object else { throw ProtocolError(.malformedMessage, "payload is not a JSON object") }
        var reader = JSONObjectReader(tape: tape, object: 0)
        let value: Value?
        var op = ""
        do {
            try reader.member("op", &op)
            value = try read(op, &reader)
        } catch {
            throw ProtocolError(.malformedMessage, error.description)
        }
        guard let value else { throw ProtocolError(.unknownMessage, "unknown message op '\(op.prefix(64))'") }
        return value
    }
}

extension Frame {
    /// A message frame carrying `message` on `requestID`.
    public static func message(_ message: Message, requestID: UInt32) -> Frame {
        Frame(kind: .message, requestID: requestID, payload: MessageCodec.encode(message))
    }

    /// Decodes this message frame's payload.
    public func decodeMessage() throws(ProtocolError) -> Message {
        try MessageCodec.decode(payload)
    }
}

extension Message {
    /// The message `op` names, its payload read from `reader`; nil for an op this version does not know.
    init?(op: String, reading reader: inout JSONObjectReader) throws(JSONError) {
        switch op {
        case "hello": self = .hello(try Hello(reading: &reader))
        case "welcome": self = .welcome(try Welcome(reading: &reader))
        case "error": self = .error(try ProtocolError(reading: &reader))
        case "ok": self = .ok(try OK(reading: &reader))
        case "write": self = .write(try WriteRequest(reading: &reader))
        case "read": self = .read(try ReadRequest(reading: &reader))
        case "representation": self = .representation(try RepresentationHeader(reading: &reader))
        case "list": self = .list(try PasteboardRequest(reading: &reader))
        case "items": self = .items(try ItemsReply(reading: &reader))
        case "clear": self = .clear(try ClearRequest(reading: &reader))
        case "watch": self = .watch(try PasteboardRequest(reading: &reader))
        case "changed": self = .changed(try ItemsReply(reading: &reader))
        case "credit": self = .credit(try Credit(reading: &reader))
        case "cancel": self = .cancel
        case "progress": self = .progress(try ProgressReport(reading: &reader))
        case "declare": self = .declare(try DeclareRequest(reading: &reader))
        case "types": self = .types(try PageRequest(reading: &reader))
        case "type-list": self = .typeList(try TypeList(reading: &reader))
        case "watch-types": self = .watchTypes
        case "types-changed": self = .typesChanged(try TypesChanged(reading: &reader))
        case "produce": self = .produce(try ProduceRequest(reading: &reader))
        case "size": self = .size(try SizeDeclaration(reading: &reader))
        case "released": self = .released(try Released(reading: &reader))
        case "relinquish": self = .relinquish
        case "attach": self = .attach
        case "drag": self = .drag(try DragRequest(reading: &reader))
        case "add": self = .add(try AddItemsRequest(reading: &reader))
        case "session": self = .session(try SessionInfo(reading: &reader))
        case "sessions": self = .sessions(try SessionsRequest(reading: &reader))
        case "session-list": self = .sessionList(try SessionList(reading: &reader))
        case "drop": self = .drop(try DropRequest(reading: &reader))
        case "finish": self = .finish(try FinishRequest(reading: &reader))
        case "proposed": self = .proposed(try DestinationReport(reading: &reader))
        case "dropped": self = .dropped(try DestinationReport(reading: &reader))
        case "ended": self = .ended(try SessionEnd(reading: &reader))
        case "history": self = .history(try PageRequest(reading: &reader))
        case "history-search": self = .historySearch(try HistorySearchRequest(reading: &reader))
        case "history-list": self = .historyList(try HistoryList(reading: &reader))
        case "history-restore": self = .historyRestore(try HistoryRestoreRequest(reading: &reader))
        case "history-clear": self = .historyClear
        default: return nil
        }
    }

    /// Writes the payload's members after `op`.
    func writePayload(to writer: inout JSONObjectWriter) {
        switch self {
        case .hello(let value): value.writeMembers(to: &writer)
        case .welcome(let value): value.writeMembers(to: &writer)
        case .error(let value): value.writeMembers(to: &writer)
        case .ok(let value): value.writeMembers(to: &writer)
        case .write(let value): value.writeMembers(to: &writer)
        case .read(let value): value.writeMembers(to: &writer)
        case .representation(let value): value.writeMembers(to: &writer)
        case .list(let value), .watch(let value): value.writeMembers(to: &writer)
        case .clear(let value): value.writeMembers(to: &writer)
        case .items(let value), .changed(let value): value.writeMembers(to: &writer)
        case .credit(let value): value.writeMembers(to: &writer)
        case .progress(let value): value.writeMembers(to: &writer)
        case .declare(let value): value.writeMembers(to: &writer)
        case .types(let value), .history(let value): value.writeMembers(to: &writer)
        case .typeList(let value): value.writeMembers(to: &writer)
        case .typesChanged(let value): value.writeMembers(to: &writer)
        case .produce(let value): value.writeMembers(to: &writer)
        case .size(let value): value.writeMembers(to: &writer)
        case .released(let value): value.writeMembers(to: &writer)
        case .drag(let value): value.writeMembers(to: &writer)
        case .add(let value): value.writeMembers(to: &writer)
        case .session(let value): value.writeMembers(to: &writer)
        case .sessionList(let value): value.writeMembers(to: &writer)
        case .drop(let value): value.writeMembers(to: &writer)
        case .finish(let value): value.writeMembers(to: &writer)
        case .proposed(let value), .dropped(let value): value.writeMembers(to: &writer)
        case .ended(let value): value.writeMembers(to: &writer)
        case .sessions(let value): value.writeMembers(to: &writer)
        case .historySearch(let value): value.writeMembers(to: &writer)
        case .historyList(let value): value.writeMembers(to: &writer)
        case .historyRestore(let value): value.writeMembers(to: &writer)
        case .cancel, .relinquish, .attach, .historyClear, .watchTypes: break
        }
    }
}

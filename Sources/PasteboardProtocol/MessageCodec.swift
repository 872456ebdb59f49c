import NIOCore
import PasteboardTypes

/// JSON encoding of control messages: one object, `op` plus the payload's fields.
/// Unknown members are ignored (so later versions may add optional fields).
public enum MessageCodec {
    /// Encodes `message` as the UTF-8 JSON payload of a message frame.
    public static func encode(_ message: Message) -> ByteBuffer {
        // Encoding our own Codable structs cannot fail; a failure would be a programming error.
        let bytes = HotMessageCoding.encode(message) ?? (try! JSONBytesEncoder.encode(message))
        return ByteBuffer(bytes: bytes)
    }

    /// Decodes a message frame's payload. Throws `malformed-message` or `unknown-message`.
    public static func decode(_ payload: ByteBuffer) throws(ProtocolError) -> Message {
        if let message = payload.withUnsafeReadableBytes({ HotMessageCoding.decode($0) }) { return message }
        let value: JSONValue
        do {
            value = try JSONValue.parse(payload.readableBytesView)
        } catch {
            throw ProtocolError(.malformedMessage, "payload is not JSON: \(error)")
        }
        do {
            return try JSONTreeDecoder.decode(Message.self, from: value)
        } catch let error as ProtocolError {
            throw error
        } catch let DecodingError.keyNotFound(key, context) {
            throw ProtocolError(.malformedMessage, "missing field '\(Self.path(context.codingPath + [key]))'")
        } catch let DecodingError.typeMismatch(_, context) {
            throw ProtocolError(.malformedMessage, "field '\(Self.path(context.codingPath))' has the wrong type")
        } catch let DecodingError.valueNotFound(_, context) {
            throw ProtocolError(.malformedMessage, "field '\(Self.path(context.codingPath))' is null")
        } catch let DecodingError.dataCorrupted(context) where !context.codingPath.isEmpty {
            throw ProtocolError(.malformedMessage, "field '\(Self.path(context.codingPath))': \(context.debugDescription)")
        } catch {
            throw ProtocolError(.malformedMessage, "payload is not a JSON object")
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
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

extension Message: Codable {
    private enum TypeKey: String, CodingKey { case op }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: TypeKey.self)
        let type = try container.decode(String.self, forKey: .op)
        switch type {
        case "hello": self = .hello(try Hello(from: decoder))
        case "welcome": self = .welcome(try Welcome(from: decoder))
        case "error": self = .error(try ProtocolError(from: decoder))
        case "ok": self = .ok(try OK(from: decoder))
        case "write": self = .write(try WriteRequest(from: decoder))
        case "read": self = .read(try ReadRequest(from: decoder))
        case "representation": self = .representation(try RepresentationHeader(from: decoder))
        case "list": self = .list(try PasteboardRequest(from: decoder))
        case "items": self = .items(try ItemsReply(from: decoder))
        case "clear": self = .clear(try ClearRequest(from: decoder))
        case "watch": self = .watch(try PasteboardRequest(from: decoder))
        case "changed": self = .changed(try ItemsReply(from: decoder))
        case "credit": self = .credit(try Credit(from: decoder))
        case "cancel": self = .cancel
        case "progress": self = .progress(try ProgressReport(from: decoder))
        case "declare": self = .declare(try DeclareRequest(from: decoder))
        case "types": self = .types(try TypesRequest(from: decoder))
        case "type-list": self = .typeList(try TypeList(from: decoder))
        case "produce": self = .produce(try ProduceRequest(from: decoder))
        case "size": self = .size(try SizeDeclaration(from: decoder))
        case "released": self = .released(try Released(from: decoder))
        case "relinquish": self = .relinquish
        case "attach": self = .attach
        case "drag": self = .drag(try DragRequest(from: decoder))
        case "add": self = .add(try AddItemsRequest(from: decoder))
        case "session": self = .session(try SessionInfo(from: decoder))
        case "sessions": self = .sessions(try SessionsRequest(from: decoder))
        case "session-list": self = .sessionList(try SessionList(from: decoder))
        case "drop": self = .drop(try DropRequest(from: decoder))
        case "finish": self = .finish(try FinishRequest(from: decoder))
        case "proposed": self = .proposed(try DestinationReport(from: decoder))
        case "dropped": self = .dropped(try DestinationReport(from: decoder))
        case "ended": self = .ended(try SessionEnd(from: decoder))
        case "history": self = .history(try HistoryRequest(from: decoder))
        case "history-search": self = .historySearch(try HistorySearchRequest(from: decoder))
        case "history-list": self = .historyList(try HistoryList(from: decoder))
        case "history-restore": self = .historyRestore(try HistoryRestoreRequest(from: decoder))
        case "history-clear": self = .historyClear
        default: throw ProtocolError(.unknownMessage, "unknown message op '\(type)'")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: TypeKey.self)
        try container.encode(op, forKey: .op)
        switch self {
        case .hello(let value): try value.encode(to: encoder)
        case .welcome(let value): try value.encode(to: encoder)
        case .error(let value): try value.encode(to: encoder)
        case .ok(let value): try value.encode(to: encoder)
        case .write(let value): try value.encode(to: encoder)
        case .read(let value): try value.encode(to: encoder)
        case .representation(let value): try value.encode(to: encoder)
        case .list(let value), .watch(let value): try value.encode(to: encoder)
        case .clear(let value): try value.encode(to: encoder)
        case .items(let value), .changed(let value): try value.encode(to: encoder)
        case .credit(let value): try value.encode(to: encoder)
        case .progress(let value): try value.encode(to: encoder)
        case .declare(let value): try value.encode(to: encoder)
        case .types(let value): try value.encode(to: encoder)
        case .typeList(let value): try value.encode(to: encoder)
        case .produce(let value): try value.encode(to: encoder)
        case .size(let value): try value.encode(to: encoder)
        case .released(let value): try value.encode(to: encoder)
        case .drag(let value): try value.encode(to: encoder)
        case .add(let value): try value.encode(to: encoder)
        case .session(let value): try value.encode(to: encoder)
        case .sessionList(let value): try value.encode(to: encoder)
        case .drop(let value): try value.encode(to: encoder)
        case .finish(let value): try value.encode(to: encoder)
        case .proposed(let value), .dropped(let value): try value.encode(to: encoder)
        case .ended(let value): try value.encode(to: encoder)
        case .sessions(let value): try value.encode(to: encoder)
        case .history(let value): try value.encode(to: encoder)
        case .historySearch(let value): try value.encode(to: encoder)
        case .historyList(let value): try value.encode(to: encoder)
        case .historyRestore(let value): try value.encode(to: encoder)
        case .cancel, .relinquish, .attach, .historyClear: break
        }
    }
}

/// Encodes `Encodable` values as compact UTF-8 JSON, for protocol messages.
///
/// The counterpart of `JSONTreeDecoder`, for the same reason: Foundation's `JSONEncoder`
/// spends tens of thousands of instructions on a small message in dynamic casts. Members come
/// out in the order they were encoded; strings escape `"`, `\` and control characters only.
/// Non-finite numbers cannot be JSON and throw `EncodingError.invalidValue`.
package enum JSONBytesEncoder {
    /// The JSON text of `value`.
    package static func encode(_ value: some Encodable) throws -> [UInt8] {
        let root = Node.Slot()
        try value.encode(to: TreeEncoder(slot: root, codingPath: []))
        var output: [UInt8] = []
        output.reserveCapacity(128)
        try (root.node ?? .object(Node.Members())).write(to: &output, at: [])
        return output
    }
}

/// The tree being built. Objects and arrays are references, so that every container asked of
/// one encoder (a message's `op`, then its payload's fields) adds to the same object.
private enum Node {
    case null
    case bool(Bool)
    case number(String)
    case double(Double)
    case string(String)
    case array(Elements)
    case object(Members)

    final class Members {
        var keys: [String] = []
        var values: [String: Slot] = [:]

        /// The slot for `key`, made (in encoding order) if new.
        func slot(_ key: String) -> Slot {
            if let slot = values[key] { return slot }
            let slot = Slot()
            keys.append(key)
            values[key] = slot
            return slot
        }
    }

    final class Elements {
        var slots: [Slot] = []

        func append() -> Slot {
            let slot = Slot()
            slots.append(slot)
            return slot
        }
    }

    /// Where one value goes; empty until something is encoded into it.
    final class Slot {
        var node: Node?
    }

    func write(to output: inout [UInt8], at path: [any CodingKey]) throws {
        switch self {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let flag): output.append(contentsOf: (flag ? "true" : "false").utf8)
        case .number(let text): output.append(contentsOf: text.utf8)
        case .double(let number):
            guard number.isFinite else {
                throw EncodingError.invalidValue(number, .init(codingPath: path, debugDescription: "\(number) cannot be written as JSON"))
            }
            if number == number.rounded(), abs(number) < 1e15 {
                output.append(contentsOf: String(Int64(number)).utf8)
            } else {
                output.append(contentsOf: "\(number)".utf8)
            }
        case .string(let text): Self.write(string: text, to: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (index, slot) in elements.slots.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                try (slot.node ?? .null).write(to: &output, at: path)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            var first = true
            for key in members.keys {
                guard let node = members.values[key]?.node else { continue }
                if !first { output.append(UInt8(ascii: ",")) }
                first = false
                Self.write(string: key, to: &output)
                output.append(UInt8(ascii: ":"))
                try node.write(to: &output, at: path)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    static func write(string: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case UInt8(ascii: "\n"): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case UInt8(ascii: "\r"): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case UInt8(ascii: "\t"): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}

/// An `Encoder` writing into one slot of the tree.
private struct TreeEncoder: Encoder {
    let slot: Node.Slot
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let members: Node.Members
        if case .object(let existing)? = slot.node {
            members = existing
        } else {
            members = Node.Members()
            slot.node = .object(members)
        }
        return KeyedEncodingContainer(KeyedTreeEncoding<Key>(members: members, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let elements: Node.Elements
        if case .array(let existing)? = slot.node {
            elements = existing
        } else {
            elements = Node.Elements()
            slot.node = .array(elements)
        }
        return UnkeyedTreeEncoding(elements: elements, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleTreeEncoding(slot: slot, codingPath: codingPath)
    }
}

/// Scalars as nodes; anything else encodes itself into `slot`.
private enum ScalarNode {
    static func put<T: Encodable>(_ value: T, into slot: Node.Slot, at path: [any CodingKey]) throws {
        if let node = node(for: value) {
            slot.node = node
        } else {
            try value.encode(to: TreeEncoder(slot: slot, codingPath: path))
        }
    }

    static func node<T: Encodable>(for value: T) -> Node? {
        if T.self == String.self { return .string(value as! String) }
        if T.self == Int.self { return .number(String(value as! Int)) }
        if T.self == Bool.self { return .bool(value as! Bool) }
        if T.self == UInt32.self { return .number(String(value as! UInt32)) }
        if T.self == Double.self { return .double(value as! Double) }
        if T.self == Int64.self { return .number(String(value as! Int64)) }
        if T.self == Int32.self { return .number(String(value as! Int32)) }
        if T.self == Int16.self { return .number(String(value as! Int16)) }
        if T.self == Int8.self { return .number(String(value as! Int8)) }
        if T.self == UInt64.self { return .number(String(value as! UInt64)) }
        if T.self == UInt16.self { return .number(String(value as! UInt16)) }
        if T.self == UInt8.self { return .number(String(value as! UInt8)) }
        if T.self == UInt.self { return .number(String(value as! UInt)) }
        if T.self == Float.self { return .double(Double(value as! Float)) }
        return nil
    }
}

private struct KeyedTreeEncoding<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let members: Node.Members
    let codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) { members.slot(key.stringValue).node = .null }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try ScalarNode.put(value, into: members.slot(key.stringValue), at: codingPath + [key])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        TreeEncoder(slot: members.slot(key.stringValue), codingPath: codingPath + [key]).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        TreeEncoder(slot: members.slot(key.stringValue), codingPath: codingPath + [key]).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { TreeEncoder(slot: members.slot("super"), codingPath: codingPath) }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        TreeEncoder(slot: members.slot(key.stringValue), codingPath: codingPath + [key])
    }
}

private struct UnkeyedTreeEncoding: UnkeyedEncodingContainer {
    let elements: Node.Elements
    let codingPath: [any CodingKey]

    var count: Int { elements.slots.count }

    private struct Index: CodingKey {
        let intValue: Int?
        var stringValue: String { "\(intValue ?? 0)" }
        init(_ index: Int) { intValue = index }
        init?(stringValue: String) { nil }
        init?(intValue: Int) { self.intValue = intValue }
    }

    mutating func encodeNil() { elements.append().node = .null }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let path = codingPath + [Index(count)]
        try ScalarNode.put(value, into: elements.append(), at: path)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let path = codingPath + [Index(count)]
        return TreeEncoder(slot: elements.append(), codingPath: path).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let path = codingPath + [Index(count)]
        return TreeEncoder(slot: elements.append(), codingPath: path).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        let path = codingPath + [Index(count)]
        return TreeEncoder(slot: elements.append(), codingPath: path)
    }
}

private struct SingleTreeEncoding: SingleValueEncodingContainer {
    let slot: Node.Slot
    let codingPath: [any CodingKey]

    mutating func encodeNil() { slot.node = .null }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try ScalarNode.put(value, into: slot, at: codingPath)
    }
}


/// Decodes `Decodable` values from JSON parsed into a `JSONValue` tree by PasteboardTypes'
/// hand-written parser.
///
/// Messages are decoded for every request the daemon serves and by every `pb` run. Foundation's
/// `JSONDecoder` costs about 66,000 instructions for a small message (callgrind, in the daemon
/// under the bench's request-rate load): it checks every value against Date, Data, URL and
/// dictionary markers through dynamic casts. This decoder supports what the protocol's
/// messages use — objects, arrays, strings, booleans, numbers, null — and throws the same
/// `DecodingError`s with the same coding paths, so `MessageCodec`'s error messages stay as
/// they were.
package enum JSONTreeDecoder {
    /// Decodes a `T` from the UTF-8 JSON `bytes`. A syntax error is a `dataCorrupted` error
    /// with an empty coding path.
    package static func decode<T: Decodable>(_ type: T.Type, from bytes: some Collection<UInt8>) throws -> T {
        let value: JSONValue
        do {
            value = try JSONValue.parse(bytes)
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "not JSON: \(error)"))
        }
        return try decode(type, from: value)
    }

    /// Decodes a `T` from an already parsed JSON value.
    package static func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try T(from: TreeDecoder(value: value, path: nil))
    }
}

/// One value of the tree, as a `Decoder`.
private struct TreeDecoder: Decoder {
    let value: JSONValue
    let path: CodingPathNode?
    var codingPath: [any CodingKey] { CodingPathNode.keys(of: path) }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        switch value {
        case .object(let members):
            return KeyedDecodingContainer(KeyedTreeContainer<Key>(members: members, path: path))
        case .null:
            throw DecodingError.valueNotFound([String: Any].self, .init(codingPath: codingPath, debugDescription: "found null instead of an object"))
        default:
            throw DecodingError.typeMismatch([String: Any].self, .init(codingPath: codingPath, debugDescription: "expected an object, found \(value.typeName)"))
        }
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        switch value {
        case .array(let elements):
            return UnkeyedTreeContainer(elements: elements, path: path)
        case .null:
            throw DecodingError.valueNotFound([Any].self, .init(codingPath: codingPath, debugDescription: "found null instead of an array"))
        default:
            throw DecodingError.typeMismatch([Any].self, .init(codingPath: codingPath, debugDescription: "expected an array, found \(value.typeName)"))
        }
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleTreeContainer(value: value, path: path)
    }
}

/// Scalars out of tree values, shared by the three kinds of container.
private enum Scalar {
    /// Decodes the value at `node` (the key is `key` under `parent`).
    static func decode<T: Decodable>(_ type: T.Type, from value: JSONValue, under parent: CodingPathNode?, key: (any CodingKey)?) throws -> T {
        func path() -> [any CodingKey] { CodingPathNode.keys(of: parent, then: key) }
        if case .null = value {
            // A null where a value is required; types that accept null (Optional) never get here.
            if T.self != JSONValue.self {
                throw DecodingError.valueNotFound(T.self, .init(codingPath: path(), debugDescription: "found null"))
            }
        }
        if T.self == String.self {
            guard case .string(let text) = value else { throw mismatch(T.self, value, path()) }
            return text as! T
        }
        if T.self == Bool.self {
            guard case .bool(let flag) = value else { throw mismatch(T.self, value, path()) }
            return flag as! T
        }
        if T.self == Int.self { return try integer(Int.self, value, path()) as! T }
        if T.self == UInt32.self { return try integer(UInt32.self, value, path()) as! T }
        if T.self == Double.self { return try floatingPoint(value, path()) as! T }
        if T.self == Int64.self { return try integer(Int64.self, value, path()) as! T }
        if T.self == Int32.self { return try integer(Int32.self, value, path()) as! T }
        if T.self == Int16.self { return try integer(Int16.self, value, path()) as! T }
        if T.self == Int8.self { return try integer(Int8.self, value, path()) as! T }
        if T.self == UInt64.self { return try integer(UInt64.self, value, path()) as! T }
        if T.self == UInt16.self { return try integer(UInt16.self, value, path()) as! T }
        if T.self == UInt8.self { return try integer(UInt8.self, value, path()) as! T }
        if T.self == UInt.self { return try integer(UInt.self, value, path()) as! T }
        if T.self == Float.self { return Float(try floatingPoint(value, path())) as! T }
        return try T(from: TreeDecoder(value: value, path: key.map { CodingPathNode(parent: parent, key: $0) } ?? parent))
    }

    /// An integer field: a JSON number written as an integer (optional minus, digits) whose
    /// value fits `T`. `2.0` and `1e3` are refused rather than converted (through a `Double`,
    /// -9223372036854775809 became Int.min while 9223372036854775808 failed): every integer is
    /// read from its digits, the same way whatever its sign or size.
    static func integer<T: FixedWidthInteger>(_ type: T.Type, _ value: JSONValue, _ path: @autoclosure () -> [any CodingKey]) throws -> T {
        guard case .number(let literal) = value else { throw mismatch(T.self, value, path()) }
        guard !literal.utf8.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }) else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: path(), debugDescription: "\(literal) is not an integer (integers are written without a fraction or an exponent)"))
        }
        guard let exact = T(literal) else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: path(), debugDescription: "\(literal) is out of range (\(T.min) to \(T.max))"))
        }
        return exact
    }

    static func floatingPoint(_ value: JSONValue, _ path: @autoclosure () -> [any CodingKey]) throws -> Double {
        guard case .number(let literal) = value else { throw mismatch(Double.self, value, path()) }
        guard let number = Double(literal), number.isFinite else {
            throw DecodingError.dataCorrupted(.init(codingPath: path(), debugDescription: "the number \(literal) does not fit in Double"))
        }
        return number
    }

    static func mismatch(_ type: Any.Type, _ value: JSONValue, _ path: [any CodingKey]) -> DecodingError {
        .typeMismatch(type, .init(codingPath: path, debugDescription: "expected \(type), found \(value.typeName)"))
    }
}

/// An object's members.
private struct KeyedTreeContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [String: JSONValue]
    let path: CodingPathNode?
    var codingPath: [any CodingKey] { CodingPathNode.keys(of: path) }

    var allKeys: [Key] { members.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

    private func member(_ key: Key) throws -> JSONValue {
        guard let value = members[key.stringValue] else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "no member '\(key.stringValue)'"))
        }
        return value
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        if case .null = try member(key) { return true }
        return false
    }

    func decode(_ type: String.Type, forKey key: Key) throws -> String { try Scalar.decode(type, from: member(key), under: path, key: key) }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try Scalar.decode(type, from: member(key), under: path, key: key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try Scalar.decode(type, from: member(key), under: path, key: key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try Scalar.decode(type, from: member(key), under: path, key: key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try Scalar.decode(type, from: member(key), under: path, key: key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try Scalar.decode(type, from: member(key), under: path, key: key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try Scalar.decode(type, from: member(key), under: path, key: key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try Scalar.decode(type, from: member(key), under: path, key: key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try Scalar.decode(type, from: member(key), under: path, key: key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try Scalar.decode(type, from: member(key), under: path, key: key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try Scalar.decode(type, from: member(key), under: path, key: key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try Scalar.decode(type, from: member(key), under: path, key: key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try Scalar.decode(type, from: member(key), under: path, key: key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try Scalar.decode(type, from: member(key), under: path, key: key) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try Scalar.decode(type, from: member(key), under: path, key: key) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try TreeDecoder(value: member(key), path: CodingPathNode(parent: path, key: key)).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try TreeDecoder(value: member(key), path: CodingPathNode(parent: path, key: key)).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { TreeDecoder(value: .object(members), path: path) }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        TreeDecoder(value: members[key.stringValue] ?? .null, path: CodingPathNode(parent: path, key: key))
    }
}

/// An array's elements, in order.
private struct UnkeyedTreeContainer: UnkeyedDecodingContainer {
    let elements: [JSONValue]
    let path: CodingPathNode?
    var currentIndex = 0
    var codingPath: [any CodingKey] { CodingPathNode.keys(of: path) }

    init(elements: [JSONValue], path: CodingPathNode?) {
        self.elements = elements
        self.path = path
    }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private var elementPath: [any CodingKey] { CodingPathNode.keys(of: path, then: IndexCodingKey(currentIndex)) }
    private var elementNode: CodingPathNode { CodingPathNode(parent: path, key: IndexCodingKey(currentIndex)) }

    private func current<T>(_ type: T.Type) throws -> JSONValue {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(type, .init(codingPath: elementPath, debugDescription: "the array has only \(elements.count) elements"))
        }
        return elements[currentIndex]
    }

    mutating func decodeNil() throws -> Bool {
        guard case .null = try current(Any?.self) else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let value = try Scalar.decode(type, from: current(type), under: path, key: IndexCodingKey(currentIndex))
        currentIndex += 1
        return value
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let container = try TreeDecoder(value: current([String: Any].self), path: elementNode).container(keyedBy: type)
        currentIndex += 1
        return container
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let container = try TreeDecoder(value: current([Any].self), path: elementNode).unkeyedContainer()
        currentIndex += 1
        return container
    }

    mutating func superDecoder() throws -> any Decoder {
        let decoder = TreeDecoder(value: try current(Any.self), path: elementNode)
        currentIndex += 1
        return decoder
    }
}

/// A single value.
private struct SingleTreeContainer: SingleValueDecodingContainer {
    let value: JSONValue
    let path: CodingPathNode?
    var codingPath: [any CodingKey] { CodingPathNode.keys(of: path) }

    func decodeNil() -> Bool {
        if case .null = value { return true }
        return false
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try Scalar.decode(type, from: value, under: path, key: nil) }
    func decode(_ type: String.Type) throws -> String { try Scalar.decode(type, from: value, under: path, key: nil) }
    func decode(_ type: Bool.Type) throws -> Bool { try Scalar.decode(type, from: value, under: path, key: nil) }
    func decode(_ type: Int.Type) throws -> Int { try Scalar.decode(type, from: value, under: path, key: nil) }
    func decode(_ type: Double.Type) throws -> Double { try Scalar.decode(type, from: value, under: path, key: nil) }
    func decode(_ type: Float.Type) throws -> Float { try Scalar.decode(type, from: value, under: path, key: nil) }
    func decode(_ type: Int8.Type) throws -> Int8 { try Scalar.decode(type, from: value, under: path, key: nil) }
    func decode(_ type: Int16.Type) throws -> Int16 { try Scalar.decode(type, from: value, under: path, key: nil) }
    func decode(_ type: Int32.Type) throws -> Int32 { try Scalar.decode(type, from: value, under: path, key: nil) }
    func decode(_ type: Int64.Type) throws -> Int64 { try Scalar.decode(type, from: value, under: path, key: nil) }
    func decode(_ type: UInt.Type) throws -> UInt { try Scalar.decode(type, from: value, under: path, key: nil) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try Scalar.decode(type, from: value, under: path, key: nil) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try Scalar.decode(type, from: value, under: path, key: nil) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try Scalar.decode(type, from: value, under: path, key: nil) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try Scalar.decode(type, from: value, under: path, key: nil) }
}

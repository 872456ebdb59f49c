/// Encodes `Encodable` values as compact UTF-8 JSON, for protocol messages and archive headers.
///
/// The counterpart of `JSONTreeDecoder`, for the same reason: Foundation's `JSONEncoder`
/// spends over 20,000 instructions on a small message, building a tree and checking each value
/// through dynamic casts. This one writes straight into the output as the value encodes itself
/// (the synthesized `encode(to:)` of a struct encodes its fields in order, each completely
/// before the next). Members come out in the order they were encoded; strings escape `"`, `\`
/// and control characters only. Non-finite numbers cannot be JSON and throw
/// `EncodingError.invalidValue`.
package enum JSONBytesEncoder {
    /// The JSON text of `value`.
    package static func encode(_ value: some Encodable) throws -> [UInt8] {
        let writer = JSONStreamWriter()
        try value.encode(to: StreamEncoder(writer: writer, level: 0, path: nil))
        writer.close(deeperThan: 0)
        if writer.output.isEmpty { writer.output = Array("{}".utf8) }
        return writer.output
    }
}

/// The output, and the containers still open in it.
private final class JSONStreamWriter {
    var output: [UInt8] = []
    /// Open containers, outermost first: whether each has an element yet, and its closing byte.
    private var open: [(hasElements: Bool, closer: UInt8)] = []

    init() {
        output.reserveCapacity(256)
    }

    /// Closes the containers of values that are complete: those deeper than `level`.
    func close(deeperThan level: Int) {
        while open.count > level {
            output.append(open.removeLast().closer)
        }
    }

    /// Makes sure the container of `level` is open (as an object when `object`, else an array),
    /// closing any deeper ones; a second request for the same level continues the same container.
    func begin(level: Int, object: Bool) {
        close(deeperThan: level + 1)
        if open.count == level {
            output.append(object ? UInt8(ascii: "{") : UInt8(ascii: "["))
            open.append((false, object ? UInt8(ascii: "}") : UInt8(ascii: "]")))
        }
    }

    /// Starts the next element of the container of `level`: a comma after the first, then
    /// `"key":` in an object.
    func element(level: Int, key: String?) {
        close(deeperThan: level + 1)
        if open[level].hasElements { output.append(UInt8(ascii: ",")) }
        open[level].hasElements = true
        if let key {
            string(key)
            output.append(UInt8(ascii: ":"))
        }
    }

    func literal(_ text: StaticString) {
        output.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    func boolean(_ value: Bool) {
        literal(value ? "true" : "false")
    }

    func integer(_ value: some FixedWidthInteger) {
        output.append(contentsOf: String(value).utf8)
    }

    func double(_ value: Double, path: @autoclosure () -> [any CodingKey]) throws {
        guard value.isFinite else {
            throw EncodingError.invalidValue(value, .init(codingPath: path(), debugDescription: "\(value) cannot be written as JSON"))
        }
        if value == value.rounded(), abs(value) < 1e15 {
            integer(Int64(value))
        } else {
            output.append(contentsOf: "\(value)".utf8)
        }
    }

    func string(_ text: String) {
        JSONObjectWriter.appendString(text, to: &output)
    }

    /// Writes `value`, the element just started at `level`: scalars directly, anything else by
    /// encoding itself one level deeper (`{}` if it encoded nothing at all).
    func value<T: Encodable>(_ value: T, level: Int, path: CodingPathNode?) throws {
        // Metatype comparisons, not `as?` casts: a failed dynamic cast to String costs more
        // than encoding a small struct.
        func exactly<U>(_ type: U.Type) -> U { unsafeBitCast(value, to: U.self) }
        if T.self == String.self { return string(exactly(String.self)) }
        if T.self == Int.self { return integer(exactly(Int.self)) }
        if T.self == Bool.self { return boolean(exactly(Bool.self)) }
        if T.self == UInt32.self { return integer(exactly(UInt32.self)) }
        if T.self == Double.self { return try double(exactly(Double.self), path: CodingPathNode.keys(of: path)) }
        if T.self == Int32.self { return integer(exactly(Int32.self)) }
        if T.self == Int64.self { return integer(exactly(Int64.self)) }
        if T.self == UInt64.self { return integer(exactly(UInt64.self)) }
        if T.self == UInt.self { return integer(exactly(UInt.self)) }
        if T.self == Int16.self { return integer(exactly(Int16.self)) }
        if T.self == Int8.self { return integer(exactly(Int8.self)) }
        if T.self == UInt16.self { return integer(exactly(UInt16.self)) }
        if T.self == UInt8.self { return integer(exactly(UInt8.self)) }
        if T.self == Float.self { return try double(Double(exactly(Float.self)), path: CodingPathNode.keys(of: path)) }
        let mark = output.count
        try value.encode(to: StreamEncoder(writer: self, level: level + 1, path: path))
        close(deeperThan: level + 1)
        if output.count == mark { literal("{}") }
    }
}

/// An `Encoder` for the value at one level of nesting.
private struct StreamEncoder: Encoder {
    let writer: JSONStreamWriter
    /// The index of this value's container among the writer's open containers.
    let level: Int
    let path: CodingPathNode?
    var codingPath: [any CodingKey] { CodingPathNode.keys(of: path) }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        writer.begin(level: level, object: true)
        return KeyedEncodingContainer(KeyedStreamEncoding<Key>(writer: writer, level: level, path: path))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        writer.begin(level: level, object: false)
        return UnkeyedStreamEncoding(writer: writer, level: level, path: path)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleStreamEncoding(writer: writer, level: level, path: path)
    }
}

private struct KeyedStreamEncoding<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let writer: JSONStreamWriter
    let level: Int
    let path: CodingPathNode?
    var codingPath: [any CodingKey] { CodingPathNode.keys(of: path) }

    mutating func encodeNil(forKey key: Key) { member(key) { $0.literal("null") } }
    mutating func encode(_ value: String, forKey key: Key) { member(key) { $0.string(value) } }
    mutating func encode(_ value: Int, forKey key: Key) { member(key) { $0.integer(value) } }
    mutating func encode(_ value: Bool, forKey key: Key) { member(key) { $0.boolean(value) } }
    mutating func encode(_ value: Int32, forKey key: Key) { member(key) { $0.integer(value) } }
    mutating func encode(_ value: UInt32, forKey key: Key) { member(key) { $0.integer(value) } }

    // Spelled out rather than through `member(_:_:)`: a throwing closure is not inlined (the
    // release build called it out of line for every number).
    mutating func encode(_ value: Double, forKey key: Key) throws {
        writer.element(level: level, key: key.stringValue)
        try writer.double(value, path: CodingPathNode.keys(of: path, then: key))
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        writer.element(level: level, key: key.stringValue)
        try writer.value(value, level: level, path: CodingPathNode(parent: path, key: key))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        writer.element(level: level, key: key.stringValue)
        return StreamEncoder(writer: writer, level: level + 1, path: CodingPathNode(parent: path, key: key)).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        writer.element(level: level, key: key.stringValue)
        return StreamEncoder(writer: writer, level: level + 1, path: CodingPathNode(parent: path, key: key)).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        writer.element(level: level, key: "super")
        return StreamEncoder(writer: writer, level: level + 1, path: path)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        writer.element(level: level, key: key.stringValue)
        return StreamEncoder(writer: writer, level: level + 1, path: CodingPathNode(parent: path, key: key))
    }

    /// Starts member `key`, then `write` writes its value. Inlined, with the writer lent to a
    /// closure rather than returned: each overload then compiles to what it did when it spelled
    /// both steps out (returning the writer cost a call, then a retain and a release of it).
    @inline(__always) private func member(_ key: Key, _ write: (JSONStreamWriter) -> Void) {
        writer.element(level: level, key: key.stringValue)
        write(writer)
    }
}

private struct UnkeyedStreamEncoding: UnkeyedEncodingContainer {
    let writer: JSONStreamWriter
    let level: Int
    let path: CodingPathNode?
    private(set) var count = 0
    var codingPath: [any CodingKey] { CodingPathNode.keys(of: path) }

    init(writer: JSONStreamWriter, level: Int, path: CodingPathNode?) {
        self.writer = writer
        self.level = level
        self.path = path
    }

    private mutating func next() -> CodingPathNode {
        writer.element(level: level, key: nil)
        defer { count += 1 }
        return CodingPathNode(parent: path, key: IndexCodingKey(count))
    }

    /// Starts the next element, a scalar, which needs no coding path; then `write` writes it
    /// (lent the writer, as the keyed container's `member(_:_:)` is).
    @inline(__always) private mutating func scalar(_ write: (JSONStreamWriter) -> Void) {
        writer.element(level: level, key: nil)
        count += 1
        write(writer)
    }

    mutating func encodeNil() { scalar { $0.literal("null") } }
    mutating func encode(_ value: String) { scalar { $0.string(value) } }
    mutating func encode(_ value: Int) { scalar { $0.integer(value) } }
    mutating func encode(_ value: UInt32) { scalar { $0.integer(value) } }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let elementPath = next()
        try writer.value(value, level: level, path: elementPath)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        StreamEncoder(writer: writer, level: level + 1, path: next()).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        StreamEncoder(writer: writer, level: level + 1, path: next()).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        StreamEncoder(writer: writer, level: level + 1, path: next())
    }
}

/// A single value: written in place, at the level of the encoder it came from.
private struct SingleStreamEncoding: SingleValueEncodingContainer {
    let writer: JSONStreamWriter
    let level: Int
    let path: CodingPathNode?
    var codingPath: [any CodingKey] { CodingPathNode.keys(of: path) }

    mutating func encodeNil() { writer.literal("null") }
    mutating func encode(_ value: String) { writer.string(value) }
    mutating func encode(_ value: Bool) { writer.boolean(value) }
    mutating func encode(_ value: Int) { writer.integer(value) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        // A wrapper encoding another value in its place: that value takes this level.
        try writer.value(value, level: level - 1, path: path)
    }
}

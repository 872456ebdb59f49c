/// The one JSON writer: an object's members, compact, in the order given. A `JSONObjectCoding`
/// writes its members through it (see `JSONMembers`), messages and archive headers alike.
public struct JSONObjectWriter: JSONMembers {
    public typealias Failure = Never
    /// The JSON written so far.
    public var output: [UInt8] = []
    /// Whether the object being written has a member (the next one is preceded by a comma).
    private var hasMembers = false

    /// Starts an object.
    public init() {
        output.reserveCapacity(128)
        output.append(UInt8(ascii: "{"))
    }

    /// Starts the object with its `op` member.
    public init(op: String) {
        self.init()
        key("op")
        JSONObjectWriter.appendString(op, to: &output)
    }

    /// Ends the object: its JSON is `output`.
    public mutating func close() {
        output.append(UInt8(ascii: "}"))
    }

    /// Writes `,"name":`. Member names are the protocol's own, plain ASCII: written as they are.
    public mutating func key(_ name: StaticString) {
        if hasMembers { output.append(UInt8(ascii: ",")) }
        hasMembers = true
        output.append(UInt8(ascii: "\""))
        output.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        output.append(UInt8(ascii: "\""))
        output.append(UInt8(ascii: ":"))
    }

    /// Writes member `name` unless its value is absent (a nil optional).
    @inlinable public mutating func member<Value: JSONField>(_ name: StaticString, _ value: inout Value) {
        guard !value.isAbsent else { return }
        key(name)
        value.writeJSON(to: &self)
    }

    /// Writes member `name` unless `value` is absent.
    @inlinable public mutating func member<Value: JSONField>(_ name: StaticString, _ value: Value) {
        var value = value
        member(name, &value)
    }

    /// Starts an object nested in the one being written (as a member's value or an array's
    /// element); pass what it returns to `endObject(_:)`.
    public mutating func beginObject() -> Bool {
        defer { hasMembers = false }
        output.append(UInt8(ascii: "{"))
        return hasMembers
    }

    /// Ends the nested object begun by the `beginObject()` that returned `outer`.
    public mutating func endObject(_ outer: Bool) {
        output.append(UInt8(ascii: "}"))
        hasMembers = outer
    }

    /// Appends `value` in decimal, as `String(value)` spells it.
    public static func appendDecimal(_ value: Int, to output: inout [UInt8]) {
        if value < 0 { output.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // room for Int.min's 19 digits
        withUnsafeMutableBytes(of: &digits) { buffer in
            var index = buffer.count
            repeat {
                index -= 1
                buffer[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            output.append(contentsOf: buffer[index...])
        }
    }

    /// Appends `text` as a JSON string: `"`, `\` and control characters escaped, the rest as
    /// is, in runs between escapes.
    public static func appendString(_ text: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { bytes in
            var runStart = 0
            for index in bytes.indices {
                let byte = bytes[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                runStart = index + 1
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                    output.append(UInt8(ascii: "\\"))
                    output.append(byte)
                case UInt8(ascii: "\n"):
                    output.append(UInt8(ascii: "\\"))
                    output.append(UInt8(ascii: "n"))
                default:
                    let hex: StaticString = "0123456789abcdef"
                    output.append(contentsOf: "\\u00".utf8)
                    output.append(hex.utf8Start[Int(byte >> 4)])
                    output.append(hex.utf8Start[Int(byte & 0xF)])
                }
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
        }
        output.append(UInt8(ascii: "\""))
    }
}

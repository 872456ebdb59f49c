/// Writes one JSON object's members, compact, in the order given, as `JSONBytesEncoder` does.
package struct JSONObjectWriter {
    /// The JSON written so far.
    package var output: [UInt8] = []
    /// Whether a member was written (the next one is preceded by a comma).
    private var hasMembers = false

    /// Starts an object.
    package init() {
        output.reserveCapacity(128)
        output.append(UInt8(ascii: "{"))
    }

    /// Starts the object with its `op` member.
    init(op: StaticString) {
        output.reserveCapacity(128)
        output.append(contentsOf: #"{"op":""#.utf8)
        Self.appendRaw(op, to: &output)
        output.append(UInt8(ascii: "\""))
        hasMembers = true
    }

    /// Ends the object: its JSON is `output`.
    package mutating func close() {
        output.append(UInt8(ascii: "}"))
    }

    /// Writes `,"name":`. Member names are the protocol's own, plain ASCII: written as they are.
    package mutating func key(_ name: StaticString) {
        if hasMembers { output.append(UInt8(ascii: ",")) }
        hasMembers = true
        output.append(UInt8(ascii: "\""))
        Self.appendRaw(name, to: &output)
        output.append(UInt8(ascii: "\""))
        output.append(UInt8(ascii: ":"))
    }

    package mutating func member(_ name: StaticString, _ value: String?) {
        guard let value else { return }
        key(name)
        Self.appendString(value, to: &output)
    }

    package mutating func member(_ name: StaticString, _ value: Int?) {
        guard let value else { return }
        key(name)
        Self.appendDecimal(value, to: &output)
    }

    package mutating func member(_ name: StaticString, _ value: Int32?) {
        member(name, value.map(Int.init))
    }

    package mutating func member(_ name: StaticString, _ value: Bool?) {
        guard let value else { return }
        key(name)
        output.append(contentsOf: value ? "true".utf8 : "false".utf8)
    }

    private static func appendRaw(_ text: StaticString, to output: inout [UInt8]) {
        output.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Appends `value` in decimal, as `String(value)` spells it.
    package static func appendDecimal(_ value: Int, to output: inout [UInt8]) {
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

    /// Writes an array of strings.
    package mutating func strings(_ values: [String]) {
        output.append(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            Self.appendString(value, to: &output)
        }
        output.append(UInt8(ascii: "]"))
    }

    /// Appends `text` as a JSON string: `"`, `\` and control characters escaped, the rest as
    /// is, in runs between escapes.
    package static func appendString(_ text: String, to output: inout [UInt8]) {
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

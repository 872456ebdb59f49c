extension JSONValue {
    /// Why bytes are not JSON, with the byte offset where parsing stopped.
    package struct SyntaxError: Error, CustomStringConvertible {
        package let offset: Int
        package let reason: String
        package var description: String { "\(reason) at byte \(offset)" }
    }

    /// Parses one JSON value (RFC 8259) from UTF-8 `bytes`, surrounded by nothing but
    /// whitespace. An object that gives a member name twice is refused. Written by hand rather than through `JSONDecoder`: type declarations are read
    /// each time `pb` starts, and Codable's generic decoding of an any-typed value costs several
    /// milliseconds there.
    package static func parse(_ bytes: some Collection<UInt8>) throws(SyntaxError) -> JSONValue {
        var parser = Parser(bytes: Array(bytes))
        let value = try parser.value(depth: 0)
        parser.skipWhitespace()
        guard parser.offset == parser.bytes.count else { throw parser.error("unexpected text after the value") }
        return value
    }

    private struct Parser {
        let bytes: [UInt8]
        var offset = 0
        /// Deeper nesting than this is refused rather than risking the stack.
        static let maximumDepth = 512

        func error(_ reason: String) -> SyntaxError { SyntaxError(offset: offset, reason: reason) }

        mutating func skipWhitespace() {
            while offset < bytes.count {
                switch bytes[offset] {
                case 0x20, 0x09, 0x0A, 0x0D: offset += 1
                default: return
                }
            }
        }

        mutating func value(depth: Int) throws(SyntaxError) -> JSONValue {
            guard depth < Self.maximumDepth else { throw error("nesting deeper than \(Self.maximumDepth)") }
            skipWhitespace()
            guard offset < bytes.count else { throw error("unexpected end of input") }
            switch bytes[offset] {
            case UInt8(ascii: "{"): return try object(depth: depth)
            case UInt8(ascii: "["): return try array(depth: depth)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): try literal("true"); return .bool(true)
            case UInt8(ascii: "f"): try literal("false"); return .bool(false)
            case UInt8(ascii: "n"): try literal("null"); return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
            default: throw error("unexpected character")
            }
        }

        mutating func literal(_ word: StaticString) throws(SyntaxError) {
            let count = word.utf8CodeUnitCount
            guard offset + count <= bytes.count,
                  bytes[offset..<offset + count].elementsEqual(UnsafeBufferPointer(start: word.utf8Start, count: count))
            else { throw error("unexpected character") }
            offset += count
        }

        mutating func object(depth: Int) throws(SyntaxError) -> JSONValue {
            offset += 1
            var members: [String: JSONValue] = [:]
            skipWhitespace()
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "}") { offset += 1; return .object(members) }
            while true {
                skipWhitespace()
                guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else { throw error("expected a member name") }
                let keyOffset = offset
                let key = try string()
                skipWhitespace()
                guard offset < bytes.count, bytes[offset] == UInt8(ascii: ":") else { throw error("expected ':'") }
                offset += 1
                // RFC 8259 leaves a repeated name's meaning open (parsers differ on which one
                // wins), so an object that repeats one is refused rather than read one way.
                guard members.updateValue(try value(depth: depth + 1), forKey: key) == nil else {
                    throw SyntaxError(offset: keyOffset, reason: "member '\(key)' appears more than once")
                }
                skipWhitespace()
                guard offset < bytes.count else { throw error("unexpected end of input") }
                if bytes[offset] == UInt8(ascii: ",") { offset += 1; continue }
                guard bytes[offset] == UInt8(ascii: "}") else { throw error("expected ',' or '}'") }
                offset += 1
                return .object(members)
            }
        }

        mutating func array(depth: Int) throws(SyntaxError) -> JSONValue {
            offset += 1
            var elements: [JSONValue] = []
            skipWhitespace()
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "]") { offset += 1; return .array(elements) }
            while true {
                elements.append(try value(depth: depth + 1))
                skipWhitespace()
                guard offset < bytes.count else { throw error("unexpected end of input") }
                if bytes[offset] == UInt8(ascii: ",") { offset += 1; continue }
                guard bytes[offset] == UInt8(ascii: "]") else { throw error("expected ',' or ']'") }
                offset += 1
                return .array(elements)
            }
        }

        mutating func string() throws(SyntaxError) -> String {
            offset += 1
            // Most strings have no escapes and are ASCII: take their bytes as they are.
            var end = offset
            while end < bytes.count, bytes[end] >= 0x20, bytes[end] < 0x80, bytes[end] != UInt8(ascii: "\\") {
                if bytes[end] == UInt8(ascii: "\"") {
                    let text = String(decoding: bytes[offset..<end], as: UTF8.self)
                    offset = end + 1
                    return text
                }
                end += 1
            }
            var scalars = String.UnicodeScalarView()
            var run = offset
            func flush(_ end: Int) {
                if run < end { scalars.append(contentsOf: String(decoding: bytes[run..<end], as: UTF8.self).unicodeScalars) }
            }
            while offset < bytes.count {
                let byte = bytes[offset]
                switch byte {
                case UInt8(ascii: "\""):
                    flush(offset)
                    offset += 1
                    return String(scalars)
                case UInt8(ascii: "\\"):
                    flush(offset)
                    offset += 1
                    scalars.append(try escape())
                    run = offset
                case 0..<0x20:
                    throw error("control character in a string")
                default:
                    if byte >= 0x80 { try checkUTF8() } else { offset += 1 }
                }
            }
            throw error("unterminated string")
        }

        /// Validates one multi-byte UTF-8 sequence at `offset` and steps over it.
        mutating func checkUTF8() throws(SyntaxError) {
            let byte = bytes[offset]
            let count = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC2 ? 2 : 0
            guard count > 0, byte < 0xF5, offset + count <= bytes.count,
                  String(validating: bytes[offset..<offset + count], as: UTF8.self) != nil
            else { throw error("invalid UTF-8") }
            offset += count
        }

        mutating func escape() throws(SyntaxError) -> Unicode.Scalar {
            guard offset < bytes.count else { throw error("unterminated string") }
            let byte = bytes[offset]
            offset += 1
            switch byte {
            case UInt8(ascii: "\""): return "\""
            case UInt8(ascii: "\\"): return "\\"
            case UInt8(ascii: "/"): return "/"
            case UInt8(ascii: "b"): return "\u{08}"
            case UInt8(ascii: "f"): return "\u{0C}"
            case UInt8(ascii: "n"): return "\n"
            case UInt8(ascii: "r"): return "\r"
            case UInt8(ascii: "t"): return "\t"
            case UInt8(ascii: "u"):
                let first = try hex4()
                if (0xD800..<0xDC00).contains(first) {
                    guard offset + 1 < bytes.count, bytes[offset] == UInt8(ascii: "\\"), bytes[offset + 1] == UInt8(ascii: "u") else {
                        throw error("unpaired surrogate")
                    }
                    offset += 2
                    let second = try hex4()
                    guard (0xDC00..<0xE000).contains(second) else { throw error("unpaired surrogate") }
                    return Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))!
                }
                guard let scalar = Unicode.Scalar(first) else { throw error("unpaired surrogate") }
                return scalar
            default:
                throw error("invalid escape")
            }
        }

        mutating func hex4() throws(SyntaxError) -> UInt32 {
            guard offset + 4 <= bytes.count else { throw error("unterminated string") }
            var value: UInt32 = 0
            for byte in bytes[offset..<offset + 4] {
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: throw error("invalid \\u escape")
                }
                value = value << 4 | UInt32(digit)
            }
            offset += 4
            return value
        }

        mutating func number() throws(SyntaxError) -> String {
            let start = offset
            if bytes[offset] == UInt8(ascii: "-") { offset += 1 }
            guard offset < bytes.count, isDigit(bytes[offset]) else { throw error("invalid number") }
            if bytes[offset] == UInt8(ascii: "0") { offset += 1 } else { skipDigits() }
            if offset < bytes.count, bytes[offset] == UInt8(ascii: ".") {
                offset += 1
                guard offset < bytes.count, isDigit(bytes[offset]) else { throw error("invalid number") }
                skipDigits()
            }
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "e") || bytes[offset] == UInt8(ascii: "E") {
                offset += 1
                if offset < bytes.count, bytes[offset] == UInt8(ascii: "+") || bytes[offset] == UInt8(ascii: "-") { offset += 1 }
                guard offset < bytes.count, isDigit(bytes[offset]) else { throw error("invalid number") }
                skipDigits()
            }
            return String(decoding: bytes[start..<offset], as: UTF8.self)
        }

        func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

        mutating func skipDigits() {
            while offset < bytes.count, isDigit(bytes[offset]) { offset += 1 }
        }
    }
}

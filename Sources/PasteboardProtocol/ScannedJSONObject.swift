#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A JSON object's members located in its bytes, with no value built: the hot messages read
/// their few fields straight from the bytes instead of parsing a `JSONValue` tree first.
///
/// Deliberately narrow. Scanning succeeds only for an object that is valid JSON and simple:
/// strings without escapes (any valid UTF-8), no member name given twice among those a caller
/// asks for, nesting no deeper than `maximumDepth`. Anything else (an escape, a syntax error,
/// a repeated member) yields nil, and the caller falls back to the full parser, which decides
/// and reports the error. So a result from here is always the result the full parser would give.
struct ScannedJSONObject {
    /// Where one member's name (without quotes) and value lie in the bytes.
    struct Member {
        var nameStart: Int
        var nameEnd: Int
        var valueStart: Int
        var valueEnd: Int
    }

    let bytes: UnsafeRawBufferPointer
    let members: [Member]

    /// Deeper nesting is left to the full parser.
    static let maximumDepth = 32

    /// Scans the object that makes up all of `bytes` (whitespace around it allowed).
    init?(wholeDocument bytes: UnsafeRawBufferPointer) {
        var scanner = JSONByteScanner(bytes: bytes, offset: 0)
        scanner.skipWhitespace()
        let start = scanner.offset
        guard scanner.skipValue(depth: 0) else { return nil }
        scanner.skipWhitespace()
        guard scanner.offset == bytes.count else { return nil }
        self.init(bytes: bytes, start: start)
    }

    /// The object whose value starts at `start` in `bytes`, which has been validated already
    /// (by scanning the document that contains it); nil when it is not an object.
    init?(bytes: UnsafeRawBufferPointer, start: Int) {
        guard start < bytes.count, bytes[start] == UInt8(ascii: "{") else { return nil }
        var scanner = JSONByteScanner(bytes: bytes, offset: start + 1)
        var members: [Member] = []
        members.reserveCapacity(10)
        scanner.skipWhitespace()
        if scanner.peek == UInt8(ascii: "}") {
            self.bytes = bytes
            self.members = members
            return
        }
        while true {
            scanner.skipWhitespace()
            let nameStart = scanner.offset + 1
            guard scanner.skipValue(depth: 0) else { return nil }
            let nameEnd = scanner.offset - 1
            scanner.skipWhitespace()
            scanner.offset += 1  // ':'
            scanner.skipWhitespace()
            let valueStart = scanner.offset
            guard scanner.skipValue(depth: 1) else { return nil }
            members.append(Member(nameStart: nameStart, nameEnd: nameEnd, valueStart: valueStart, valueEnd: scanner.offset))
            scanner.skipWhitespace()
            guard scanner.peek == UInt8(ascii: ",") else { break }
            scanner.offset += 1
        }
        self.bytes = bytes
        self.members = members
    }

    /// What a member's lookup found.
    enum Lookup {
        /// No member of that name.
        case absent
        /// More than one: left to the full parser (its last one wins).
        case repeated
        /// Where the value lies.
        case value(start: Int, end: Int)
    }

    /// The member called `name`.
    func lookup(_ name: StaticString) -> Lookup {
        let count = name.utf8CodeUnitCount
        var found: Lookup = .absent
        for member in members where member.nameEnd - member.nameStart == count {
            guard memcmp(bytes.baseAddress! + member.nameStart, name.utf8Start, count) == 0 else { continue }
            if case .value = found { return .repeated }
            found = .value(start: member.valueStart, end: member.valueEnd)
        }
        return found
    }

    // MARK: Fields, as the Codable path accepts them

    /// A string member; nil when absent, repeated or of another type.
    func string(_ name: StaticString) -> String? {
        guard case .value(let start, let end) = lookup(name) else { return nil }
        return Self.string(in: bytes, start: start, end: end)
    }

    /// A boolean member; nil when absent, repeated or of another type.
    func bool(_ name: StaticString) -> Bool? {
        guard case .value(let start, _) = lookup(name) else { return nil }
        switch bytes[start] {
        case UInt8(ascii: "t"): return true
        case UInt8(ascii: "f"): return false
        default: return nil
        }
    }

    /// An integer member written as plain digits (what `Int(_: String)` accepts); other
    /// spellings (`1e3`, `1.0`) and overflow are left to the Codable path.
    func int(_ name: StaticString) -> Int? {
        guard case .value(let start, let end) = lookup(name) else { return nil }
        return Self.int(in: bytes, start: start, end: end)
    }

    func int32(_ name: StaticString) -> Int32? {
        int(name).flatMap { Int32(exactly: $0) }
    }

    /// An array-of-strings member.
    func strings(_ name: StaticString) -> [String]? {
        guard case .value(let start, _) = lookup(name), bytes[start] == UInt8(ascii: "[") else { return nil }
        var result: [String] = []
        let complete = Self.forEachElement(in: bytes, arrayStart: start) { start, end in
            guard let text = Self.string(in: bytes, start: start, end: end) else { return false }
            result.append(text)
            return true
        }
        return complete ? result : nil
    }

    /// Calls `body` with each element of the array member `name` as an object; false when the
    /// member is not an array of objects or `body` refuses one.
    func forEachObject(in name: StaticString, _ body: (ScannedJSONObject) -> Bool) -> Bool {
        guard case .value(let start, _) = lookup(name), bytes[start] == UInt8(ascii: "[") else { return false }
        return Self.forEachElement(in: bytes, arrayStart: start) { start, _ in
            guard let object = ScannedJSONObject(bytes: bytes, start: start) else { return false }
            return body(object)
        }
    }

    /// The object member `name`, when it is one.
    func object(_ name: StaticString) -> ScannedJSONObject? {
        guard case .value(let start, _) = lookup(name) else { return nil }
        return ScannedJSONObject(bytes: bytes, start: start)
    }

    /// Whether `name` is absent or null (an optional the Codable path reads as nil).
    func isAbsentOrNull(_ name: StaticString) -> Bool {
        switch lookup(name) {
        case .absent: return true
        case .repeated: return false
        case .value(let start, _): return bytes[start] == UInt8(ascii: "n")
        }
    }

    /// An optional member: `.some(nil)` when absent or null, `.some(value)` when `read`
    /// accepts it, nil (not decodable here) otherwise.
    func optional<T>(_ name: StaticString, _ read: (StaticString) -> T?) -> T?? {
        if isAbsentOrNull(name) { return .some(nil) }
        return read(name).map { .some($0) }
    }

    // MARK: Values

    private static func string(in bytes: UnsafeRawBufferPointer, start: Int, end: Int) -> String? {
        guard bytes[start] == UInt8(ascii: "\"") else { return nil }
        // Scanning refused escapes and invalid UTF-8: the bytes between the quotes are the text.
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[(start + 1)..<(end - 1)]), as: UTF8.self)
    }

    private static func int(in bytes: UnsafeRawBufferPointer, start: Int, end: Int) -> Int? {
        var offset = start
        let negative = bytes[offset] == UInt8(ascii: "-")
        if negative { offset += 1 }
        guard offset < end else { return nil }
        var value = 0
        while offset < end {
            let digit = bytes[offset] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }  // a fraction or an exponent
            let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) = negative ? shifted.subtractingReportingOverflow(Int(digit)) : shifted.addingReportingOverflow(Int(digit))
            guard !overflow1, !overflow2 else { return nil }
            value = next
            offset += 1
        }
        return value
    }

    /// Visits the elements of the (validated) array at `arrayStart`; false when `body` refuses one.
    private static func forEachElement(in bytes: UnsafeRawBufferPointer, arrayStart: Int, _ body: (Int, Int) -> Bool) -> Bool {
        var scanner = JSONByteScanner(bytes: bytes, offset: arrayStart + 1)
        scanner.skipWhitespace()
        if scanner.peek == UInt8(ascii: "]") { return true }
        while true {
            scanner.skipWhitespace()
            let start = scanner.offset
            guard scanner.skipValue(depth: 1) else { return false }
            guard body(start, scanner.offset) else { return false }
            scanner.skipWhitespace()
            guard scanner.peek == UInt8(ascii: ",") else { return true }
            scanner.offset += 1
        }
    }
}

/// Steps over JSON values in bytes, checking their syntax as RFC 8259 has it, and refusing
/// (returning false for) what `ScannedJSONObject` leaves to the full parser.
struct JSONByteScanner {
    let bytes: UnsafeRawBufferPointer
    var offset: Int

    var peek: UInt8? { offset < bytes.count ? bytes[offset] : nil }

    mutating func skipWhitespace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x20, 0x09, 0x0A, 0x0D: offset += 1
            default: return
            }
        }
    }

    /// Steps over one value starting at `offset`; false when it is not valid, simple JSON.
    mutating func skipValue(depth: Int) -> Bool {
        guard depth < ScannedJSONObject.maximumDepth, let first = peek else { return false }
        switch first {
        case UInt8(ascii: "{"): return skipContainer(depth: depth, close: UInt8(ascii: "}"), members: true)
        case UInt8(ascii: "["): return skipContainer(depth: depth, close: UInt8(ascii: "]"), members: false)
        case UInt8(ascii: "\""): return skipString()
        case UInt8(ascii: "t"): return skipLiteral("true")
        case UInt8(ascii: "f"): return skipLiteral("false")
        case UInt8(ascii: "n"): return skipLiteral("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return skipNumber()
        default: return false
        }
    }

    private mutating func skipContainer(depth: Int, close: UInt8, members: Bool) -> Bool {
        offset += 1
        skipWhitespace()
        if peek == close { offset += 1; return true }
        while true {
            skipWhitespace()
            if members {
                guard peek == UInt8(ascii: "\""), skipString() else { return false }
                skipWhitespace()
                guard peek == UInt8(ascii: ":") else { return false }
                offset += 1
                skipWhitespace()
            }
            guard skipValue(depth: depth + 1) else { return false }
            skipWhitespace()
            switch peek {
            case UInt8(ascii: ","): offset += 1
            case close: offset += 1; return true
            default: return false
            }
        }
    }

    /// A string without escapes or control characters, whose bytes are valid UTF-8.
    private mutating func skipString() -> Bool {
        offset += 1
        let start = offset
        var ascii = true
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") {
                if !ascii, String(validating: UnsafeRawBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self) == nil {
                    return false
                }
                offset += 1
                return true
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { return false }
            if byte >= 0x80 { ascii = false }
            offset += 1
        }
        return false
    }

    private mutating func skipLiteral(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard offset + count <= bytes.count, memcmp(bytes.baseAddress! + offset, word.utf8Start, count) == 0 else { return false }
        offset += count
        return true
    }

    private mutating func skipNumber() -> Bool {
        if peek == UInt8(ascii: "-") { offset += 1 }
        guard let first = peek, isDigit(first) else { return false }
        if first == UInt8(ascii: "0") { offset += 1 } else { skipDigits() }
        if peek == UInt8(ascii: ".") {
            offset += 1
            guard let digit = peek, isDigit(digit) else { return false }
            skipDigits()
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            offset += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { offset += 1 }
            guard let digit = peek, isDigit(digit) else { return false }
            skipDigits()
        }
        return true
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private mutating func skipDigits() {
        while let byte = peek, isDigit(byte) { offset += 1 }
    }
}

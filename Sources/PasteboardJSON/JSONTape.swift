#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The one JSON reader: every value of a document, in document order, located in its bytes.
/// One pass checks the syntax (RFC 8259, an object repeating a member name refused) and records
/// where each value lies, so lookups never scan twice and nothing is built that is not asked for.
///
/// Written by hand rather than through Foundation: protocol messages are read for every request
/// the daemon serves and by every `pb` run, and Foundation's `JSONDecoder` cost about 66,000
/// instructions for a small message (callgrind, in the daemon under the bench's request-rate
/// load); reading the few members of a message straight from the bytes, with no tree, cost a
/// fraction of the tree decoder that replaced it first. Type declarations are read through the
/// same tape (as a `JSONValue` tree) each time `pb` starts, where Codable's generic decoding of
/// an any-typed value cost several milliseconds.
public struct JSONTape {
    public enum Kind: UInt8, Sendable { case object, array, string, number, `true`, `false`, null }

    /// One value. A string or number spans `start..<end` (a string without its quotes, in the
    /// bytes, or in `unescapedText` when it was written with escapes); an object or array is
    /// followed by its contents (an object's as name, value, name, value…) and `end` is the
    /// index of the first entry after them.
    public struct Entry: Sendable {
        public var kind: Kind
        /// A string whose text was written with escapes: decoded into `unescapedText`.
        public var unescaped = false
        public var start: Int
        public var end: Int
        /// A string's first eight bytes (zero-padded), so member names compare in a register.
        public var prefix: UInt64 = 0
    }

    /// The document.
    public let bytes: UnsafeRawBufferPointer
    /// Every value, in document order; the document's own value is the first.
    public private(set) var entries: [Entry] = []
    /// The text of the strings written with escapes, decoded, one after another.
    private var unescapedText: [UInt8] = []

    /// Deeper nesting is refused rather than risking the stack.
    public static let maximumDepth = 512
    /// Past this many members, an object's names are checked for repetition through a set
    /// rather than one by one, so a large object costs linear time, not quadratic.
    static let membersComparedDirectly = 32

    /// Reads the JSON value that makes up all of `bytes` (whitespace around it allowed).
    public init(_ bytes: UnsafeRawBufferPointer) throws(JSONSyntaxError) {
        self.bytes = bytes
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count > 0 else {
            throw JSONSyntaxError(offset: 0, reason: "unexpected end of input")
        }
        entries.reserveCapacity(32)
        var offset = Self.skipWhitespace(base, bytes.count, 0)
        offset = try record(base, bytes.count, offset, depth: 0)
        offset = Self.skipWhitespace(base, bytes.count, offset)
        guard offset == bytes.count else { throw JSONSyntaxError(offset: offset, reason: "unexpected text after the value") }
    }

    // MARK: Reading

    /// The index of the entry after the value at `index` (and its contents).
    public func next(after index: Int) -> Int {
        switch entries[index].kind {
        case .object, .array: return entries[index].end
        default: return index + 1
        }
    }

    /// The tape index of the value of member `name` of the object at `object`; nil when it has
    /// none. Objects of the protocol have a handful of members: comparing with each, eight bytes
    /// at once mostly, costs less than any lookup structure would.
    public func member(_ name: StaticString, ofObjectAt object: Int) -> Int? {
        let count = name.utf8CodeUnitCount
        let prefix = Self.prefix(name.utf8Start, count: count)
        let end = entries[object].end
        var index = object + 1
        while index < end {
            let key = entries[index]
            if key.prefix == prefix, key.end - key.start == count {
                if count <= 8 { return index + 1 }
                if withText(of: key, { memcmp($0.baseAddress! + 8, name.utf8Start + 8, count - 8) == 0 }) { return index + 1 }
            }
            index = next(after: index + 1)
        }
        return nil
    }

    /// The string at `index`; nil when that value is not a string.
    public func string(at index: Int) -> String? {
        let entry = entries[index]
        guard entry.kind == .string else { return nil }
        // The tape checked the UTF-8: the bytes are the text.
        return withText(of: entry) { String(decoding: $0, as: UTF8.self) }
    }

    /// The number at `index` as it is written (`-12`, `1.5e3`); nil when that value is not a number.
    public func numberText(at index: Int) -> String? {
        let entry = entries[index]
        guard entry.kind == .number else { return nil }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[entry.start..<entry.end]), as: UTF8.self)
    }

    /// The integer at `index`, read from its digits: a fraction or an exponent is no integer even
    /// when the value is whole (through a `Double`, -9223372036854775809 became Int.min while
    /// 9223372036854775808 failed), and a value outside `T` is refused, the same way whatever its
    /// sign or size.
    public func integer<T: FixedWidthInteger>(at index: Int, as type: T.Type = T.self) throws(JSONError) -> T {
        let entry = entries[index]
        guard entry.kind == .number else { throw JSONError(.wrongType) }
        var offset = entry.start
        let negative = bytes[offset] == UInt8(ascii: "-")
        if negative { offset += 1 }
        var value: T = 0
        var overflow = false
        while offset < entry.end {
            let digit = bytes[offset] &- UInt8(ascii: "0")
            guard digit < 10 else {
                throw JSONError(.invalid("\(numberText(at: index)!) is not an integer (integers are written without a fraction or an exponent)"))
            }
            if !overflow {
                let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
                let (next, overflow2) = negative ? shifted.subtractingReportingOverflow(T(digit)) : shifted.addingReportingOverflow(T(digit))
                overflow = overflow1 || overflow2
                value = next
            }
            offset += 1
        }
        guard !overflow else { throw JSONError(.invalid("\(numberText(at: index)!) is out of range (\(T.min) to \(T.max))")) }
        return value
    }

    /// The number at `index` as a `Double`; one too large for it is refused rather than made infinite.
    public func double(at index: Int) throws(JSONError) -> Double {
        guard let literal = numberText(at: index) else { throw JSONError(.wrongType) }
        guard let number = Double(literal), number.isFinite else { throw JSONError(.invalid("the number \(literal) does not fit in Double")) }
        return number
    }

    /// Calls `body` with the text of the string `entry`.
    private func withText<R>(of entry: Entry, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        if entry.unescaped {
            return unescapedText.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[entry.start..<entry.end])) }
        }
        return body(UnsafeRawBufferPointer(rebasing: bytes[entry.start..<entry.end]))
    }

    /// The first eight bytes of `count` at `start` (zero-padded), as `Entry.prefix` holds them.
    static func prefix(_ start: UnsafePointer<UInt8>, count: Int) -> UInt64 {
        var prefix: UInt64 = 0
        withUnsafeMutableBytes(of: &prefix) { $0.copyMemory(from: UnsafeRawBufferPointer(start: start, count: min(count, 8))) }
        return prefix
    }

    // MARK: Scanning

    private static func skipWhitespace(_ base: UnsafePointer<UInt8>, _ count: Int, _ start: Int) -> Int {
        var offset = start
        while offset < count {
            switch base[offset] {
            case 0x20, 0x09, 0x0A, 0x0D: offset += 1
            default: return offset
            }
        }
        return offset
    }

    /// Records the value at `offset` (and its contents); returns the offset after it.
    private mutating func record(_ base: UnsafePointer<UInt8>, _ count: Int, _ offset: Int, depth: Int) throws(JSONSyntaxError) -> Int {
        guard depth < Self.maximumDepth else { throw JSONSyntaxError(offset: offset, reason: "nesting deeper than \(Self.maximumDepth)") }
        guard offset < count else { throw JSONSyntaxError(offset: offset, reason: "unexpected end of input") }
        switch base[offset] {
        case UInt8(ascii: "{"): return try container(base, count, offset, depth: depth, kind: .object, close: UInt8(ascii: "}"))
        case UInt8(ascii: "["): return try container(base, count, offset, depth: depth, kind: .array, close: UInt8(ascii: "]"))
        case UInt8(ascii: "\""):
            let (entry, end) = try string(base, count, offset)
            entries.append(entry)
            return end
        case UInt8(ascii: "t"): return try literal(base, count, offset, "true", .true)
        case UInt8(ascii: "f"): return try literal(base, count, offset, "false", .false)
        case UInt8(ascii: "n"): return try literal(base, count, offset, "null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let end = try Self.numberEnd(base, count, offset)
            entries.append(Entry(kind: .number, start: offset, end: end))
            return end
        default: throw JSONSyntaxError(offset: offset, reason: "unexpected character")
        }
    }

    private mutating func container(
        _ base: UnsafePointer<UInt8>, _ count: Int, _ start: Int, depth: Int, kind: Kind, close: UInt8
    ) throws(JSONSyntaxError) -> Int {
        let index = entries.count
        entries.append(Entry(kind: kind, start: start, end: 0))
        var offset = Self.skipWhitespace(base, count, start + 1)
        if offset < count, base[offset] == close {
            entries[index].end = entries.count
            return offset + 1
        }
        var names = MemberNames()
        while true {
            if kind == .object {
                guard offset < count, base[offset] == UInt8(ascii: "\"") else { throw JSONSyntaxError(offset: offset, reason: "expected a member name") }
                let (name, end) = try string(base, count, offset)
                // RFC 8259 leaves a repeated name's meaning open (parsers differ on which one
                // wins), so an object that repeats one is refused rather than read one way.
                if names.isRepeated(name, inObjectAt: index, of: self) {
                    throw JSONSyntaxError(offset: offset, reason: "member '\(withText(of: name) { String(decoding: $0, as: UTF8.self) })' appears more than once")
                }
                entries.append(name)
                offset = Self.skipWhitespace(base, count, end)
                guard offset < count, base[offset] == UInt8(ascii: ":") else { throw JSONSyntaxError(offset: offset, reason: "expected ':'") }
                offset = Self.skipWhitespace(base, count, offset + 1)
            }
            offset = Self.skipWhitespace(base, count, try record(base, count, offset, depth: depth + 1))
            guard offset < count else { throw JSONSyntaxError(offset: offset, reason: "unexpected end of input") }
            if base[offset] == UInt8(ascii: ",") {
                offset = Self.skipWhitespace(base, count, offset + 1)
                continue
            }
            guard base[offset] == close else {
                throw JSONSyntaxError(offset: offset, reason: kind == .object ? "expected ',' or '}'" : "expected ',' or ']'")
            }
            entries[index].end = entries.count
            return offset + 1
        }
    }

    /// The names an object being recorded has so far, for finding a repeated one.
    private struct MemberNames {
        var count = 0
        /// The names as text, once the object has more than `membersComparedDirectly`.
        var set: Set<[UInt8]>?

        mutating func isRepeated(_ name: JSONTape.Entry, inObjectAt object: Int, of tape: JSONTape) -> Bool {
            count += 1
            if var names = set {
                set = nil  // keeps the set uniquely referenced while it grows
                let repeated = !names.insert(tape.withText(of: name) { Array($0) }).inserted
                set = names
                return repeated
            }
            var index = object + 1
            var known: Set<[UInt8]> = []
            let collect = count > JSONTape.membersComparedDirectly
            while index < tape.entries.count {
                if tape.sameText(tape.entries[index], name) { return true }
                if collect { known.insert(tape.withText(of: tape.entries[index]) { Array($0) }) }
                index = tape.next(after: index + 1)
            }
            if collect {
                known.insert(tape.withText(of: name) { Array($0) })
                set = known
            }
            return false
        }
    }

    /// Whether two strings have the same text: eight bytes in a register, then the rest.
    private func sameText(_ a: Entry, _ b: Entry) -> Bool {
        guard a.prefix == b.prefix, a.end - a.start == b.end - b.start else { return false }
        let count = a.end - a.start
        guard count > 8 else { return true }
        return withText(of: a) { first in withText(of: b) { second in memcmp(first.baseAddress! + 8, second.baseAddress! + 8, count - 8) == 0 } }
    }

    private mutating func literal(_ base: UnsafePointer<UInt8>, _ count: Int, _ offset: Int, _ word: StaticString, _ kind: Kind) throws(JSONSyntaxError) -> Int {
        let length = word.utf8CodeUnitCount
        guard offset + length <= count, memcmp(base + offset, word.utf8Start, length) == 0 else {
            throw JSONSyntaxError(offset: offset, reason: "unexpected character")
        }
        entries.append(Entry(kind: kind, start: offset, end: offset + length))
        return offset + length
    }

    /// The string whose opening quote is at `quote`, and the offset after its closing quote.
    /// Most strings have no escapes: their text is their bytes, checked as UTF-8 when not ASCII.
    private mutating func string(_ base: UnsafePointer<UInt8>, _ count: Int, _ quote: Int) throws(JSONSyntaxError) -> (Entry, Int) {
        var offset = quote + 1
        var ascii = true
        while offset < count {
            let byte = base[offset]
            if byte == UInt8(ascii: "\"") {
                if !ascii { try Self.checkUTF8(base, from: quote + 1, to: offset) }
                return (Entry(kind: .string, start: quote + 1, end: offset, prefix: Self.prefix(base + quote + 1, count: offset - quote - 1)), offset + 1)
            }
            if byte == UInt8(ascii: "\\") { return try escapedString(base, count, quote) }
            if byte < 0x20 { throw JSONSyntaxError(offset: offset, reason: "control character in a string") }
            if byte >= 0x80 { ascii = false }
            offset += 1
        }
        throw JSONSyntaxError(offset: offset, reason: "unterminated string")
    }

    /// A string written with escapes: its text decoded into `unescapedText`.
    private mutating func escapedString(_ base: UnsafePointer<UInt8>, _ count: Int, _ quote: Int) throws(JSONSyntaxError) -> (Entry, Int) {
        let start = unescapedText.count
        var offset = quote + 1
        var run = offset
        func flush(_ tape: inout JSONTape, _ end: Int) throws(JSONSyntaxError) {
            guard run < end else { return }
            try Self.checkUTF8(base, from: run, to: end)
            tape.unescapedText.append(contentsOf: UnsafeBufferPointer(start: base + run, count: end - run))
        }
        while offset < count {
            let byte = base[offset]
            switch byte {
            case UInt8(ascii: "\""):
                try flush(&self, offset)
                let prefix = unescapedText.withUnsafeBufferPointer { Self.prefix($0.baseAddress! + start, count: $0.count - start) }
                return (Entry(kind: .string, unescaped: true, start: start, end: unescapedText.count, prefix: prefix), offset + 1)
            case UInt8(ascii: "\\"):
                try flush(&self, offset)
                offset += 1
                let scalar = try Self.escape(base, count, &offset)
                unescapedText.append(contentsOf: UTF8.encode(scalar)!)
                run = offset
            case 0..<0x20:
                throw JSONSyntaxError(offset: offset, reason: "control character in a string")
            default:
                offset += 1
            }
        }
        throw JSONSyntaxError(offset: offset, reason: "unterminated string")
    }

    private static func checkUTF8(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int) throws(JSONSyntaxError) {
        guard String(validating: UnsafeBufferPointer(start: base + start, count: end - start), as: UTF8.self) == nil else { return }
        // Point at the first byte that starts no valid sequence.
        var offset = start
        while offset < end {
            let byte = base[offset]
            let length = byte < 0x80 ? 1 : byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC2 ? 2 : 0
            guard length > 0, byte < 0xF5, offset + length <= end,
                  String(validating: UnsafeBufferPointer(start: base + offset, count: length), as: UTF8.self) != nil
            else { break }
            offset += length
        }
        throw JSONSyntaxError(offset: offset, reason: "invalid UTF-8")
    }

    /// The character an escape stands for; `offset` is just after the backslash, and moves past the escape.
    private static func escape(_ base: UnsafePointer<UInt8>, _ count: Int, _ offset: inout Int) throws(JSONSyntaxError) -> Unicode.Scalar {
        guard offset < count else { throw JSONSyntaxError(offset: offset, reason: "unterminated string") }
        let byte = base[offset]
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
            let first = try hex4(base, count, &offset)
            if (0xD800..<0xDC00).contains(first) {
                guard offset + 1 < count, base[offset] == UInt8(ascii: "\\"), base[offset + 1] == UInt8(ascii: "u") else {
                    throw JSONSyntaxError(offset: offset, reason: "unpaired surrogate")
                }
                offset += 2
                let second = try hex4(base, count, &offset)
                guard (0xDC00..<0xE000).contains(second) else { throw JSONSyntaxError(offset: offset, reason: "unpaired surrogate") }
                return Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))!
            }
            guard let scalar = Unicode.Scalar(first) else { throw JSONSyntaxError(offset: offset, reason: "unpaired surrogate") }
            return scalar
        default:
            throw JSONSyntaxError(offset: offset - 1, reason: "invalid escape")
        }
    }

    private static func hex4(_ base: UnsafePointer<UInt8>, _ count: Int, _ offset: inout Int) throws(JSONSyntaxError) -> UInt32 {
        guard offset + 4 <= count else { throw JSONSyntaxError(offset: offset, reason: "unterminated string") }
        var value: UInt32 = 0
        for byte in UnsafeBufferPointer(start: base + offset, count: 4) {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw JSONSyntaxError(offset: offset, reason: "invalid \\u escape")
            }
            value = value << 4 | UInt32(digit)
        }
        offset += 4
        return value
    }

    /// The offset after the number starting at `start`, written as RFC 8259 has it.
    private static func numberEnd(_ base: UnsafePointer<UInt8>, _ count: Int, _ start: Int) throws(JSONSyntaxError) -> Int {
        func isDigit(_ offset: Int) -> Bool { offset < count && base[offset] &- UInt8(ascii: "0") < 10 }
        var offset = start
        if base[offset] == UInt8(ascii: "-") { offset += 1 }
        guard isDigit(offset) else { throw JSONSyntaxError(offset: offset, reason: "invalid number") }
        if base[offset] == UInt8(ascii: "0") { offset += 1 } else { while isDigit(offset) { offset += 1 } }
        if offset < count, base[offset] == UInt8(ascii: ".") {
            offset += 1
            guard isDigit(offset) else { throw JSONSyntaxError(offset: offset, reason: "invalid number") }
            while isDigit(offset) { offset += 1 }
        }
        if offset < count, base[offset] == UInt8(ascii: "e") || base[offset] == UInt8(ascii: "E") {
            offset += 1
            if offset < count, base[offset] == UInt8(ascii: "+") || base[offset] == UInt8(ascii: "-") { offset += 1 }
            guard isDigit(offset) else { throw JSONSyntaxError(offset: offset, reason: "invalid number") }
            while isDigit(offset) { offset += 1 }
        }
        return offset
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Every value of a JSON document, in document order, located in its bytes: one pass checks
/// the syntax (RFC 8259) and records where each value lies, so lookups never scan twice.
/// Refuses (is nil for) what `ScannedJSONObject` leaves to the full parser.
struct JSONTape {
    enum Kind: UInt8 { case object, array, string, number, `true`, `false`, null }

    /// One value. A string or number spans `start..<end` in the bytes (a string without its
    /// quotes); an object or array is followed by its contents (an object's as name, value,
    /// name, value…) and `end` is the index of the first entry after them.
    struct Entry {
        var kind: Kind
        var start: Int
        var end: Int
        /// A string's first eight bytes (zero-padded), so member names compare in a register.
        var prefix: UInt64 = 0
    }

    /// The first eight bytes of `count` at `start` (zero-padded), as `Entry.prefix` holds them.
    static func prefix(_ start: UnsafePointer<UInt8>, count: Int) -> UInt64 {
        var prefix: UInt64 = 0
        withUnsafeMutableBytes(of: &prefix) { $0.copyMemory(from: UnsafeRawBufferPointer(start: start, count: min(count, 8))) }
        return prefix
    }

    let bytes: UnsafeRawBufferPointer
    private(set) var entries: [Entry] = []

    /// Deeper nesting is left to the full parser.
    static let maximumDepth = 32

    init?(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        entries.reserveCapacity(32)
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }
        var offset = Self.skipWhitespace(base, bytes.count, 0)
        guard let end = record(base, bytes.count, offset, depth: 0) else { return nil }
        offset = Self.skipWhitespace(base, bytes.count, end)
        guard offset == bytes.count else { return nil }
    }

    /// The index of the entry after the value at `index` (and its contents).
    func next(after index: Int) -> Int {
        switch entries[index].kind {
        case .object, .array: return entries[index].end
        default: return index + 1
        }
    }

    /// The string at `index`; nil when that value is not a string.
    func string(at index: Int) -> String? {
        let entry = entries[index]
        guard entry.kind == .string else { return nil }
        // The tape refused escapes and invalid UTF-8: the bytes between the quotes are the text.
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[entry.start..<entry.end]), as: UTF8.self)
    }

    /// The integer at `index`, when it is written as plain digits and fits an `Int`.
    func int(at index: Int) -> Int? {
        let entry = entries[index]
        guard entry.kind == .number else { return nil }
        var offset = entry.start
        let negative = bytes[offset] == UInt8(ascii: "-")
        if negative { offset += 1 }
        var value = 0
        while offset < entry.end {
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

    /// Records the value at `offset` (and its contents); returns the offset after it, or nil.
    private mutating func record(_ base: UnsafePointer<UInt8>, _ count: Int, _ offset: Int, depth: Int) -> Int? {
        guard depth < Self.maximumDepth, offset < count else { return nil }
        switch base[offset] {
        case UInt8(ascii: "{"): return container(base, count, offset, depth: depth, kind: .object, close: UInt8(ascii: "}"))
        case UInt8(ascii: "["): return container(base, count, offset, depth: depth, kind: .array, close: UInt8(ascii: "]"))
        case UInt8(ascii: "\""):
            guard let end = Self.stringEnd(base, count, offset + 1) else { return nil }
            entries.append(Entry(kind: .string, start: offset + 1, end: end, prefix: Self.prefix(base + offset + 1, count: end - offset - 1)))
            return end + 1
        case UInt8(ascii: "t"): return literal(base, count, offset, "true", .true)
        case UInt8(ascii: "f"): return literal(base, count, offset, "false", .false)
        case UInt8(ascii: "n"): return literal(base, count, offset, "null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            guard let end = Self.numberEnd(base, count, offset) else { return nil }
            entries.append(Entry(kind: .number, start: offset, end: end))
            return end
        default: return nil
        }
    }

    private mutating func container(
        _ base: UnsafePointer<UInt8>, _ count: Int, _ start: Int, depth: Int, kind: Kind, close: UInt8
    ) -> Int? {
        let index = entries.count
        entries.append(Entry(kind: kind, start: start, end: 0))
        var offset = Self.skipWhitespace(base, count, start + 1)
        if offset < count, base[offset] == close {
            entries[index].end = entries.count
            return offset + 1
        }
        while true {
            if kind == .object {
                guard offset < count, base[offset] == UInt8(ascii: "\""), let end = Self.stringEnd(base, count, offset + 1) else { return nil }
                let name = Entry(kind: .string, start: offset + 1, end: end, prefix: Self.prefix(base + offset + 1, count: end - offset - 1))
                // A repeated member name is the full parser's to refuse, with its message.
                guard !hasMember(named: name, inObjectAt: index, base) else { return nil }
                entries.append(name)
                offset = Self.skipWhitespace(base, count, end + 1)
                guard offset < count, base[offset] == UInt8(ascii: ":") else { return nil }
                offset = Self.skipWhitespace(base, count, offset + 1)
            }
            guard let end = record(base, count, offset, depth: depth + 1) else { return nil }
            offset = Self.skipWhitespace(base, count, end)
            guard offset < count else { return nil }
            if base[offset] == UInt8(ascii: ",") {
                offset = Self.skipWhitespace(base, count, offset + 1)
                continue
            }
            guard base[offset] == close else { return nil }
            entries[index].end = entries.count
            return offset + 1
        }
    }

    /// Whether the string entry `key` (in the bytes at `base`) is the `count` bytes at `name`,
    /// whose first eight are `prefix`: compared in a register, then the rest with memcmp.
    static func isName(_ key: Entry, _ base: UnsafePointer<UInt8>, equalTo name: UnsafePointer<UInt8>, count: Int, prefix: UInt64) -> Bool {
        key.prefix == prefix && key.end - key.start == count && (count <= 8 || memcmp(base + key.start + 8, name + 8, count - 8) == 0)
    }

    /// Whether the object whose entry is at `object` (still being recorded) already has a
    /// member called as `name` is. Objects of the protocol have a handful of members, so
    /// comparing with each (eight bytes at once, mostly) costs less than any set would.
    private func hasMember(named name: Entry, inObjectAt object: Int, _ base: UnsafePointer<UInt8>) -> Bool {
        let length = name.end - name.start
        var index = object + 1
        while index < entries.count {
            if Self.isName(entries[index], base, equalTo: base + name.start, count: length, prefix: name.prefix) { return true }
            index = next(after: index + 1)
        }
        return false
    }

    private mutating func literal(_ base: UnsafePointer<UInt8>, _ count: Int, _ offset: Int, _ word: StaticString, _ kind: Kind) -> Int? {
        let length = word.utf8CodeUnitCount
        guard offset + length <= count, memcmp(base + offset, word.utf8Start, length) == 0 else { return nil }
        entries.append(Entry(kind: kind, start: offset, end: offset + length))
        return offset + length
    }

    /// The offset of the closing quote of the string whose text starts at `start`, when the
    /// string has no escape or control character and its bytes are valid UTF-8.
    private static func stringEnd(_ base: UnsafePointer<UInt8>, _ count: Int, _ start: Int) -> Int? {
        var offset = start
        var ascii = true
        while offset < count {
            let byte = base[offset]
            if byte == UInt8(ascii: "\"") {
                if !ascii, String(validating: UnsafeBufferPointer(start: base + start, count: offset - start), as: UTF8.self) == nil {
                    return nil
                }
                return offset
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { return nil }
            if byte >= 0x80 { ascii = false }
            offset += 1
        }
        return nil
    }

    /// The offset after the number starting at `start`, when it is written as RFC 8259 has it.
    private static func numberEnd(_ base: UnsafePointer<UInt8>, _ count: Int, _ start: Int) -> Int? {
        func isDigit(_ offset: Int) -> Bool { offset < count && base[offset] &- UInt8(ascii: "0") < 10 }
        var offset = start
        if base[offset] == UInt8(ascii: "-") { offset += 1 }
        guard isDigit(offset) else { return nil }
        if base[offset] == UInt8(ascii: "0") { offset += 1 } else { while isDigit(offset) { offset += 1 } }
        if offset < count, base[offset] == UInt8(ascii: ".") {
            offset += 1
            guard isDigit(offset) else { return nil }
            while isDigit(offset) { offset += 1 }
        }
        if offset < count, base[offset] == UInt8(ascii: "e") || base[offset] == UInt8(ascii: "E") {
            offset += 1
            if offset < count, base[offset] == UInt8(ascii: "+") || base[offset] == UInt8(ascii: "-") { offset += 1 }
            guard isDigit(offset) else { return nil }
            while isDigit(offset) { offset += 1 }
        }
        return offset
    }
}

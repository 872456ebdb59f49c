#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A JSON object's members located in its bytes, with no value built: the hot messages read
/// their few fields straight from the bytes instead of parsing a `JSONValue` tree first.
///
/// Deliberately narrow. Scanning succeeds only for a document that is valid JSON and simple:
/// strings without escapes (any valid UTF-8), nesting no deeper than `JSONTape.maximumDepth`,
/// no object giving a member name twice. Anything else (an escape, a syntax error, a repeated
/// member) yields nil, and the caller falls back to the full parser, which decides and reports
/// the error. So a result from here is the result the full parser gives.
struct ScannedJSONObject {
    let tape: JSONTape
    /// The object's entry on the tape.
    let entry: Int

    /// The object that makes up all of `bytes` (whitespace around it allowed).
    init?(wholeDocument bytes: UnsafeRawBufferPointer) {
        guard let tape = JSONTape(bytes), tape.entries.first?.kind == .object else { return nil }
        self.tape = tape
        self.entry = 0
    }

    private init(tape: JSONTape, entry: Int) {
        self.tape = tape
        self.entry = entry
    }

    /// The tape index of the value of the member called `name`; nil when there is none (the
    /// tape holds no object with a repeated name).
    private func value(_ name: StaticString) -> Int? {
        let count = name.utf8CodeUnitCount
        let prefix = JSONTape.prefix(name.utf8Start, count: count)
        var index = entry + 1
        let end = tape.entries[entry].end
        let base = tape.bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
        while index < end {
            if JSONTape.isName(tape.entries[index], base, equalTo: name.utf8Start, count: count, prefix: prefix) {
                return index + 1
            }
            index = tape.next(after: index + 1)
        }
        return nil
    }

    // MARK: Fields, as the Codable path accepts them

    /// A string member; nil when absent or of another type.
    func string(_ name: StaticString) -> String? {
        value(name).flatMap(tape.string(at:))
    }

    /// A boolean member; nil when absent or of another type.
    func bool(_ name: StaticString) -> Bool? {
        guard let index = value(name) else { return nil }
        switch tape.entries[index].kind {
        case .true: return true
        case .false: return false
        default: return nil
        }
    }

    /// An integer member written as plain digits (what `Int(_: String)` accepts); other
    /// spellings (`1e3`, `1.0`) and overflow are left to the Codable path.
    func int(_ name: StaticString) -> Int? {
        value(name).flatMap(tape.int(at:))
    }

    func int32(_ name: StaticString) -> Int32? {
        int(name).flatMap { Int32(exactly: $0) }
    }

    /// An array-of-strings member.
    func strings(_ name: StaticString) -> [String]? {
        guard let array = value(name), tape.entries[array].kind == .array else { return nil }
        var result: [String] = []
        var index = array + 1
        while index < tape.entries[array].end {
            guard let text = tape.string(at: index) else { return nil }
            result.append(text)
            index += 1
        }
        return result
    }

    /// Calls `body` with each element of the array member `name` as an object; false when the
    /// member is not an array of objects or `body` refuses one.
    func forEachObject(in name: StaticString, _ body: (ScannedJSONObject) -> Bool) -> Bool {
        guard let array = value(name), tape.entries[array].kind == .array else { return false }
        var index = array + 1
        while index < tape.entries[array].end {
            guard tape.entries[index].kind == .object, body(ScannedJSONObject(tape: tape, entry: index)) else { return false }
            index = tape.next(after: index)
        }
        return true
    }

    /// The object member `name`, when it is one.
    func object(_ name: StaticString) -> ScannedJSONObject? {
        guard let index = value(name), tape.entries[index].kind == .object else { return nil }
        return ScannedJSONObject(tape: tape, entry: index)
    }

    /// Whether `name` is absent or null (an optional the Codable path reads as nil).
    func isAbsentOrNull(_ name: StaticString) -> Bool {
        guard let index = value(name) else { return true }
        return tape.entries[index].kind == .null
    }

    /// An optional member: `.some(nil)` when absent or null, `.some(value)` when `read`
    /// accepts it, nil (not decodable here) otherwise.
    func optional<T>(_ name: StaticString, _ read: (StaticString) -> T?) -> T?? {
        if isAbsentOrNull(name) { return .some(nil) }
        return read(name).map { .some($0) }
    }
}

/// A value a member of a JSON object can hold: read from the tape, written by the writer, and
/// (for types outside the protocol's messages) Codable the same way.
///
/// Whether the member may be absent is the field's own business: an optional stands for an
/// absent or null member as nil, and is left out when nil, as the synthesized Codable did.
public protocol JSONField: Codable {
    /// Reads the value at entry `index` of `tape`, which is not null (the member's reader
    /// decides what null means).
    init(json tape: JSONTape, at index: Int) throws(JSONError)
    /// Appends the value's JSON.
    func writeJSON(to writer: inout JSONObjectWriter)
    /// What an absent or null member stands for; nil when the member is required.
    static var absentValue: Self? { get }
    /// Whether a member holding this value is left out when written.
    var isAbsent: Bool { get }
}

extension JSONField {
    @inlinable public static var absentValue: Self? { nil }
    @inlinable public var isAbsent: Bool { false }
}

extension String: JSONField {
    public init(json tape: JSONTape, at index: Int) throws(JSONError) {
        guard let text = tape.string(at: index) else { throw JSONError(.wrongType) }
        self = text
    }

    public func writeJSON(to writer: inout JSONObjectWriter) { JSONObjectWriter.appendString(self, to: &writer.output) }
}

extension Bool: JSONField {
    public init(json tape: JSONTape, at index: Int) throws(JSONError) {
        switch tape.entries[index].kind {
        case .true: self = true
        case .false: self = false
        default: throw JSONError(.wrongType)
        }
    }

    public func writeJSON(to writer: inout JSONObjectWriter) { writer.output.append(contentsOf: self ? "true".utf8 : "false".utf8) }
}

extension Int: JSONField {
    public init(json tape: JSONTape, at index: Int) throws(JSONError) { self = try tape.integer(at: index) }
    public func writeJSON(to writer: inout JSONObjectWriter) { JSONObjectWriter.appendDecimal(self, to: &writer.output) }
}

extension Int32: JSONField {
    public init(json tape: JSONTape, at index: Int) throws(JSONError) { self = try tape.integer(at: index) }
    public func writeJSON(to writer: inout JSONObjectWriter) { JSONObjectWriter.appendDecimal(Int(self), to: &writer.output) }
}

extension Double: JSONField {
    public init(json tape: JSONTape, at index: Int) throws(JSONError) { self = try tape.double(at: index) }

    /// A whole number below 10^15 as an integer (`2`, not `2.0`), anything else as Swift spells
    /// it. A value that cannot be JSON (infinite, NaN) is written as null: the writer serves
    /// the daemon, which must not trap on it, and the reader refuses to make one.
    public func writeJSON(to writer: inout JSONObjectWriter) {
        if !isFinite {
            writer.output.append(contentsOf: "null".utf8)
        } else if self == rounded(), abs(self) < 1e15 {
            JSONObjectWriter.appendDecimal(Int(self), to: &writer.output)
        } else {
            writer.output.append(contentsOf: "\(self)".utf8)
        }
    }
}

extension Optional: JSONField where Wrapped: JSONField {
    @inlinable public init(json tape: JSONTape, at index: Int) throws(JSONError) {
        self = tape.entries[index].kind == .null ? nil : try Wrapped(json: tape, at: index)
    }

    @inlinable public func writeJSON(to writer: inout JSONObjectWriter) {
        if let self { self.writeJSON(to: &writer) } else { writer.output.append(contentsOf: "null".utf8) }
    }

    @inlinable public static var absentValue: Self? { .some(nil) }
    @inlinable public var isAbsent: Bool { self == nil }
}

extension Array: JSONField where Element: JSONField {
    @inlinable public init(json tape: JSONTape, at index: Int) throws(JSONError) {
        let array = tape.entries[index]
        guard array.kind == .array else { throw JSONError(.wrongType) }
        var elements: [Element] = []
        var element = index + 1
        while element < array.end {
            do throws(JSONError) {
                if tape.entries[element].kind == .null, let absent = Element.absentValue {
                    elements.append(absent)
                } else if tape.entries[element].kind == .null {
                    throw JSONError(.null)
                } else {
                    elements.append(try Element(json: tape, at: element))
                }
            } catch {
                throw error.under(String(elements.count))
            }
            element = tape.next(after: element)
        }
        self = elements
    }

    @inlinable public func writeJSON(to writer: inout JSONObjectWriter) {
        writer.output.append(UInt8(ascii: "["))
        // Indices, not `enumerated()`: unspecialized, its iterator's metadata cost 215,000
        // instructions to instantiate in `pb` (callgrind).
        for index in indices {
            if index > startIndex { writer.output.append(UInt8(ascii: ",")) }
            self[index].writeJSON(to: &writer)
        }
        writer.output.append(UInt8(ascii: "]"))
    }
}

/// An enumeration written as its raw string (`"own-process"`).
extension JSONField where Self: RawRepresentable, RawValue == String {
    @inlinable public init(json tape: JSONTape, at index: Int) throws(JSONError) {
        let raw = try String(json: tape, at: index)
        guard let value = Self(rawValue: raw) else { throw JSONError(.invalid("'\(raw)' is not one of the values this field takes")) }
        self = value
    }

    @inlinable public func writeJSON(to writer: inout JSONObjectWriter) { rawValue.writeJSON(to: &writer) }
}

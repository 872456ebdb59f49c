/// A type whose JSON is an object, defined once by listing its members.
///
/// The protocol's messages are written and read this way rather than through Codable: Codable
/// reaches each field through generic containers, and the first use of each container type in a
/// process instantiates its metadata, which on a statically linked binary scans every protocol
/// conformance record (callgrind: 2.8 million instructions for `pb paste`'s `hello`); every later
/// use still cost 20,000–40,000 instructions a message in the daemon. `members(_:)` is one
/// generic function that the reader and the writer each call directly. Codable itself is derived
/// from the same list (see `JSONObjectCoding+Codable.swift`), for apps and `pb --json`.
///
/// The reading and writing around `members(_:)` are `@inlinable`, so each module specializes
/// them for its own types: unspecialized, each generic type a member has (`Int32?`, `[ItemInfo]`)
/// is instantiated from its mangled name at first use, which more than doubled the instructions
/// of a `pb paste` (callgrind: 254,000 before this module, 593,000 with it unspecialized).
public protocol JSONObjectCoding: JSONField {
    /// The value reading starts from: `members(_:)` then sets every member or fails, so none
    /// of these values is ever seen.
    static var decodingStart: Self { get }
    /// Visits every member, in the order they are written.
    mutating func members<Members: JSONMembers>(_ json: inout Members) throws(Members.Failure)
}

extension JSONObjectCoding {
    @inlinable public init(json tape: JSONTape, at index: Int) throws(JSONError) {
        guard tape.entries[index].kind == .object else { throw JSONError(.wrongType) }
        var reader = JSONObjectReader(tape: tape, object: index)
        try self.init(reading: &reader)
    }

    /// Reads the members from `reader` (an object other members of which were read already,
    /// such as a message's `op`).
    @inlinable public init(reading reader: inout JSONObjectReader) throws(JSONError) {
        self = Self.decodingStart
        try members(&reader)
    }

    @inlinable public func writeJSON(to writer: inout JSONObjectWriter) {
        let outer = writer.beginObject()
        writeMembers(to: &writer)
        writer.endObject(outer)
    }

    /// Writes the members into the object `writer` is writing.
    @inlinable public func writeMembers(to writer: inout JSONObjectWriter) {
        var value = self
        value.members(&writer)
    }
}

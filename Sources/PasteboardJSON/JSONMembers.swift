/// One pass over an object's members, in either direction: `JSONObjectReader` sets each value
/// from the document, `JSONObjectWriter` writes each, and a Codable container does either.
/// So a type lists its members once (`JSONObjectCoding.members(_:)`) and that one list is its
/// JSON both ways: a member cannot be written but not read, or read only by one of two paths.
public protocol JSONMembers {
    /// What a pass can fail with (`Never` for the writer).
    associatedtype Failure: Error
    /// Visits the member called `name`, whose value is `value`.
    mutating func member<Value: JSONField>(_ name: StaticString, _ value: inout Value) throws(Failure)
}

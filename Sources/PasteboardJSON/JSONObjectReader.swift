/// An object on the tape, whose members a `JSONObjectCoding` reads.
public struct JSONObjectReader: JSONMembers {
    public let tape: JSONTape
    /// The object's entry on the tape.
    public let object: Int

    @inlinable public init(tape: JSONTape, object: Int) {
        self.tape = tape
        self.object = object
    }

    /// Sets `value` from member `name`: an absent or null member is the field's `absentValue`
    /// (else missing, or null), anything else must be the field's. Members the type does not
    /// list are ignored, so later versions may add optional ones.
    @inlinable public mutating func member<Value: JSONField>(_ name: StaticString, _ value: inout Value) throws(JSONError) {
        guard let index = tape.member(name, ofObjectAt: object), tape.entries[index].kind != .null else {
            guard let absent = Value.absentValue else {
                throw JSONError(tape.member(name, ofObjectAt: object) == nil ? .missing : .null, path: [name.description])
            }
            value = absent
            return
        }
        do {
            value = try Value(json: tape, at: index)
        } catch {
            throw error.under(name.description)
        }
    }
}

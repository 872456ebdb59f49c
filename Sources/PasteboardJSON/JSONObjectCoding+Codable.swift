/// Codable, derived from the members list: the same members in the same order, an optional
/// left out when nil and read as nil when absent or null, as the synthesized conformance did.
/// For apps that encode the protocol's types themselves and for `pb --json`; the protocol's own
/// reading and writing never come here.
extension JSONObjectCoding {
    public init(from decoder: any Decoder) throws {
        var members = KeyedMembersDecoding(container: try decoder.container(keyedBy: JSONMemberKey.self))
        self = Self.decodingStart
        try self.members(&members)
    }

    public func encode(to encoder: any Encoder) throws {
        var members = KeyedMembersEncoding(container: encoder.container(keyedBy: JSONMemberKey.self))
        var value = self
        try value.members(&members)
    }
}

/// A member name as a coding key.
struct JSONMemberKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }

    init(_ name: StaticString) { stringValue = name.description }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

private struct KeyedMembersDecoding: JSONMembers {
    let container: KeyedDecodingContainer<JSONMemberKey>

    mutating func member<Value: JSONField>(_ name: StaticString, _ value: inout Value) throws(any Error) {
        let key = JSONMemberKey(name)
        if let absent = Value.absentValue, try !container.contains(key) || container.decodeNil(forKey: key) {
            value = absent
        } else {
            value = try container.decode(Value.self, forKey: key)
        }
    }
}

private struct KeyedMembersEncoding: JSONMembers {
    var container: KeyedEncodingContainer<JSONMemberKey>

    mutating func member<Value: JSONField>(_ name: StaticString, _ value: inout Value) throws(any Error) {
        guard !value.isAbsent else { return }
        try container.encode(value, forKey: JSONMemberKey(name))
    }
}

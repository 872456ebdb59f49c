/// A whole JSON document holding one object: an archive's header, a journal record's. Read and
/// written through the members list, as messages are, so a field added to the type is in its
/// files at once (a hand-written writer beside a Codable reader could silently drop it).
extension JSONObjectCoding {
    /// The value as a compact JSON document.
    public var jsonDocument: [UInt8] {
        var writer = JSONObjectWriter()
        writeMembers(to: &writer)
        writer.close()
        return writer.output
    }

    /// Reads the value from `bytes`, a JSON document whose root is the object. Throws a
    /// `JSONError` naming the field that is missing or wrong, or `notJSON`.
    public init(jsonDocument bytes: [UInt8]) throws(JSONError) {
        let parsed = bytes.withUnsafeBytes { buffer in Result { () throws(JSONSyntaxError) in try JSONTape(buffer) } }
        switch parsed {
        case .success(let tape): try self.init(json: tape, at: 0)
        case .failure(let error): throw JSONError(.notJSON(error))
        }
    }
}

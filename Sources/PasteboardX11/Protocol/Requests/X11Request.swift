/// One encoded request, ready to write: its bytes, its name for error messages, and whether
/// the server answers it with a reply (so the connection knows which sequence numbers to match).
/// The factory functions (in the files beside this one) are pure, so each encoding is tested
/// byte for byte against the protocol spec's "Encoding" section.
public struct X11Request: Equatable, Sendable {
    public let name: String
    public let bytes: [UInt8]
    public let expectsReply: Bool

    public init(name: String, bytes: [UInt8], expectsReply: Bool) {
        self.name = name
        self.bytes = bytes
        self.expectsReply = expectsReply
    }

    /// The major opcode (the first byte).
    public var opcode: UInt8 { bytes[0] }

    /// A request of the core protocol: `opcode`, the one-byte `data` field, the length (filled
    /// in), then what `body` writes.
    static func core(_ name: String, opcode: UInt8, data: UInt8 = 0, expectsReply: Bool, _ body: (inout WireWriter) -> Void) -> X11Request {
        var writer = WireWriter()
        writer.u8(opcode)
        writer.u8(data)
        writer.u16(0)
        body(&writer)
        return X11Request(name: name, bytes: X11Wire.finish(writer), expectsReply: expectsReply)
    }

    /// Checks a string or byte list fits a u16 length field.
    static func checkLength(_ count: Int, _ what: String) throws {
        guard count <= Int(UInt16.max) else { throw X11Error.invalidArgument("\(what) of \(count) bytes is longer than 65535") }
    }
}

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

    /// A request whose body size is known before it is written (ChangeProperty's data): the
    /// header is written in its final form first — the core form when the whole request fits
    /// `X11Wire.coreLengthLimit` units, else BIG-REQUESTS' extended form — so a chunk of
    /// several MiB is copied once into the request, never moved again to make room for the
    /// extended length word. `paddedBodyBytes` (a multiple of four) is what `body` writes.
    /// Whether the server takes a request this long is `X11Connection.send`'s check.
    static func sized(
        _ name: String, opcode: UInt8, data: UInt8 = 0, paddedBodyBytes: Int, expectsReply: Bool, _ body: (inout WireWriter) -> Void
    ) throws -> X11Request {
        let header = try X11Wire.header(paddedBodyBytes: paddedBodyBytes)
        var writer = WireWriter(capacity: header.totalBytes)
        writer.u8(opcode)
        writer.u8(data)
        if let extended = header.extendedUnits {
            writer.u16(0)
            writer.u32(extended)
        } else {
            writer.u16(header.coreUnits)
        }
        body(&writer)
        precondition(writer.bytes.count == header.totalBytes, "\(name) wrote \(writer.bytes.count) bytes, announced \(header.totalBytes)")
        return X11Request(name: name, bytes: writer.bytes, expectsReply: expectsReply)
    }

    /// The length a request's header announces, in bytes: its core length field, or for the
    /// BIG-REQUESTS form (length field 0) the CARD32 after it. Nil for bytes too short to say.
    public static func announcedBytes(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        let core = Int(bytes[2]) | Int(bytes[3]) << 8
        if core != 0 { return core * 4 }
        guard bytes.count >= 8 else { return nil }
        let extended = UInt32(bytes[4]) | UInt32(bytes[5]) << 8 | UInt32(bytes[6]) << 16 | UInt32(bytes[7]) << 24
        return Int(extended) * 4
    }

    /// Checks a string or byte list fits a u16 length field.
    static func checkLength(_ count: Int, _ what: String) throws {
        guard count <= Int(UInt16.max) else { throw X11Error.invalidArgument("\(what) of \(count) bytes is longer than 65535") }
    }
}

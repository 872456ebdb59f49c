/// One encoded request, ready to write: its bytes (a head, and for ChangeProperty its data as a
/// trailer written after it without a copy), its name for error messages, and whether
/// the server answers it with a reply (so the connection knows which sequence numbers to match).
/// The factory functions (in the files beside this one) are pure, so each encoding is tested
/// byte for byte against the protocol spec's "Encoding" section.
public struct X11Request: Equatable, Sendable {
    public let name: String
    /// The header and fixed fields; all of a request but ChangeProperty's data.
    public let head: [UInt8]
    /// Data written after `head` as it lies, in the runs it came in, then zero bytes up to a
    /// multiple of four: a selection chunk of a MiB is handed to the socket without being
    /// copied into the request, or joined from the pieces the bridge received it in.
    public let trailer: [ByteRun]
    /// The bytes of `trailer`.
    let trailerCount: Int
    public let expectsReply: Bool

    public init(name: String, bytes: [UInt8], expectsReply: Bool) {
        self.init(name: name, head: bytes, trailer: [], expectsReply: expectsReply)
    }

    init(name: String, head: [UInt8], trailer: [ByteRun], expectsReply: Bool) {
        self.name = name
        self.head = head
        self.trailer = trailer
        self.trailerCount = trailer.byteCount
        self.expectsReply = expectsReply
    }

    /// The trailer's padding to four bytes.
    var trailerPadding: Int { X11Wire.padding(trailerCount) }

    /// The request's size on the wire.
    public var byteCount: Int { head.count + trailerCount + trailerPadding }

    /// The whole request as written (a copy joining head and trailer, for tests and checks).
    public var bytes: [UInt8] {
        trailer.isEmpty ? head : head + trailer.joined + [UInt8](repeating: 0, count: trailerPadding)
    }

    /// Requests are equal when they write the same bytes (however their data is cut in runs).
    public static func == (left: X11Request, right: X11Request) -> Bool {
        left.name == right.name && left.expectsReply == right.expectsReply && left.bytes == right.bytes
    }

    /// The major opcode (the first byte).
    public var opcode: UInt8 { head[0] }

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

    /// A request whose last field is `trailer`, a list of bytes of any length (ChangeProperty's
    /// data): the header takes the core form when the whole request fits
    /// `X11Wire.coreLengthLimit` units, else BIG-REQUESTS' extended form, and the trailer stays
    /// a separate array, so a chunk of several MiB is never copied into the request. Whether
    /// the server takes a request this long is `X11Connection.send`'s check.
    static func withTrailer(
        _ name: String, opcode: UInt8, data: UInt8 = 0, fieldBytes: Int, trailer: [ByteRun], expectsReply: Bool, _ fields: (inout WireWriter) -> Void
    ) throws(X11Error) -> X11Request {
        let trailerCount = trailer.byteCount
        let paddedTrailer = trailerCount + X11Wire.padding(trailerCount)
        let header = try X11Wire.header(paddedBodyBytes: fieldBytes + paddedTrailer)
        var writer = WireWriter(capacity: 8 + fieldBytes)
        writer.u8(opcode)
        writer.u8(data)
        if let extended = header.extendedUnits {
            writer.u16(0)
            writer.u32(extended)
        } else {
            writer.u16(header.coreUnits)
        }
        fields(&writer)
        let request = X11Request(name: name, head: writer.bytes, trailer: trailer, expectsReply: expectsReply)
        precondition(request.byteCount == header.totalBytes, "\(name) is \(request.byteCount) bytes, announced \(header.totalBytes)")
        return request
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
    static func checkLength(_ count: Int, _ what: String) throws(X11Error) {
        guard count <= Int(UInt16.max) else { throw .invalidArgument("\(what) of \(count) bytes is longer than 65535") }
    }
}

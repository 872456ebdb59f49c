/// The connection setup: the first bytes each side sends (protocol spec, "Connection Setup").
public enum ConnectionSetup {
    /// The setup request: byte order 'l' (least significant byte first, so every later number
    /// is little-endian), protocol 11.0, and the authorization protocol name and data, each
    /// padded to four bytes.
    public static func request(authorizationName: [UInt8], authorizationData: [UInt8]) throws(X11Error) -> [UInt8] {
        guard authorizationName.count <= Int(UInt16.max), authorizationData.count <= Int(UInt16.max) else {
            throw .invalidArgument("authorization name or data longer than 65535 bytes")
        }
        var writer = WireWriter(capacity: 12 + authorizationName.count + authorizationData.count + 6)
        writer.u8(UInt8(ascii: "l"))
        writer.zeros(1)
        writer.u16(11)
        writer.u16(0)
        writer.u16(UInt16(authorizationName.count))
        writer.u16(UInt16(authorizationData.count))
        writer.zeros(2)
        writer.append(authorizationName)
        writer.pad()
        writer.append(authorizationData)
        writer.pad()
        return writer.bytes
    }

    /// The first eight bytes of the server's answer tell its kind and how many four-byte units
    /// follow; `additionalBytes` range-checks that count.
    public static func additionalBytes(header: [UInt8]) throws -> Int {
        var reader = WireReader(header, context: "setup reply header")
        try reader.skip(6)
        let units = Int(try reader.u16())
        return units * 4
    }

    /// Decodes the whole answer (header and additional bytes).
    public static func decodeReply(_ bytes: [UInt8]) throws -> SetupReply {
        var reader = WireReader(bytes, context: "setup reply")
        let status = try reader.u8()
        switch status {
        case 0:
            let reasonLength = Int(try reader.u8())
            try reader.skip(4)  // protocol major and minor the server speaks
            _ = try reader.u16()
            return .failed(reason: try reader.string(reasonLength))
        case 2:
            try reader.skip(5)
            let units = Int(try reader.u16())
            let text = try reader.string(units * 4)
            return .authenticate(reason: String(text.prefix { $0 != "\0" }))
        case 1:
            return .success(try decodeSuccess(&reader))
        default:
            throw X11Error.malformedFromServer("setup reply status \(status)")
        }
    }

    private static func decodeSuccess(_ reader: inout WireReader) throws -> SetupInfo {
        try reader.skip(1)
        let major = try reader.u16()
        let minor = try reader.u16()
        guard major == 11 else { throw X11Error.malformedFromServer("server speaks protocol \(major).\(minor), not 11") }
        let units = Int(try reader.u16())
        guard units * 4 == reader.remaining else {
            throw X11Error.malformedFromServer("setup reply: length \(units) units, \(reader.remaining) bytes follow")
        }
        let release = try reader.u32()
        let idBase = try reader.u32()
        let idMask = try reader.u32()
        _ = try reader.u32()  // motion buffer size
        let vendorLength = Int(try reader.u16())
        let maximumRequestLength = try reader.u16()
        let screenCount = Int(try reader.u8())
        let formatCount = Int(try reader.u8())
        try reader.skip(4)  // image byte order, bitmap bit order, scanline unit and pad
        let minKeycode = try reader.u8()
        let maxKeycode = try reader.u8()
        try reader.skip(4)
        guard minKeycode >= 8, minKeycode <= maxKeycode else {
            throw X11Error.malformedFromServer("keycodes \(minKeycode) to \(maxKeycode): the protocol's start at 8 and go up")
        }
        let vendor = String(decoding: try reader.paddedBytes(vendorLength), as: UTF8.self)
        try reader.skip(8 * formatCount)
        guard screenCount >= 1 else { throw X11Error.malformedFromServer("setup reply lists no screens") }
        guard idMask != 0, idBase & idMask == 0 else {
            throw X11Error.malformedFromServer("resource id base 0x\(String(idBase, radix: 16)) and mask 0x\(String(idMask, radix: 16)) overlap or the mask is empty")
        }
        guard maximumRequestLength >= 4096 / 4 else {
            throw X11Error.malformedFromServer("maximum request length \(maximumRequestLength) units is below the protocol's 4096 bytes")
        }
        let root = try reader.u32()
        try reader.skip(16)  // default colormap, white and black pixels, current input masks
        let width = try reader.u16()
        let height = try reader.u16()
        try reader.skip(8)
        let rootVisual = try reader.u32()
        try reader.skip(2)
        let rootDepth = try reader.u8()
        _ = try reader.u8()  // number of depths: their visuals are not needed
        return SetupInfo(
            releaseNumber: release, resourceIDBase: idBase, resourceIDMask: idMask, vendor: vendor,
            maximumRequestLength: maximumRequestLength, screenCount: screenCount, root: WindowID(root),
            rootVisual: rootVisual, rootDepth: rootDepth, rootWidth: width, rootHeight: height,
            keycodes: minKeycode...maxKeycode
        )
    }
}

/// The server's answer to the setup request.
public enum SetupReply: Equatable, Sendable {
    case success(SetupInfo)
    case failed(reason: String)
    case authenticate(reason: String)
}

/// What we keep from a successful setup.
public struct SetupInfo: Equatable, Sendable {
    public let releaseNumber: UInt32
    /// Resource ids we allocate are `resourceIDBase | (n & resourceIDMask)`.
    public let resourceIDBase: UInt32
    public let resourceIDMask: UInt32
    public let vendor: String
    /// The largest request the server accepts, in four-byte units (without BIG-REQUESTS).
    public let maximumRequestLength: UInt16
    public let screenCount: Int
    /// Screen 0's root window: the parent of our windows.
    public let root: WindowID
    public let rootVisual: UInt32
    public let rootDepth: UInt8
    public let rootWidth: UInt16
    public let rootHeight: UInt16
    /// The keycodes the server uses (8 at the lowest): what GetKeyboardMapping may ask about.
    public var keycodes: ClosedRange<UInt8> = 8...255

    /// The largest request in bytes.
    public var maximumRequestBytes: Int { Int(maximumRequestLength) * 4 }
}

import Glibc

/// The dimensions found in a PNG file's signature and leading IHDR chunk.
public struct PNGHeader: Sendable, Equatable {
    /// Image width in pixels (> 0).
    public let width: Int
    /// Image height in pixels (> 0).
    public let height: Int
    /// `width / height`.
    public var aspectRatio: Double { Double(width) / Double(height) }

    static let signature: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10]
    /// Signature (8) + IHDR length and type (8) + IHDR data (13) + CRC (4).
    static let byteCount = 33

    /// Parses the header from the first 33 bytes of `bytes`; throws `.notPNG("the data")` if they are not a PNG header.
    public init(bytes: some Collection<UInt8>) throws(GalleryError) {
        try self.init(bytes: Array(bytes.prefix(Self.byteCount)), name: "the data")
    }

    init(bytes: [UInt8], name: String) throws(GalleryError) {
        guard bytes.count >= Self.byteCount, bytes.starts(with: Self.signature),
              Self.uint32(bytes, at: 8) == 13, bytes[12..<16].elementsEqual("IHDR".utf8)
        else { throw .notPNG(name) }
        width = Self.uint32(bytes, at: 16)
        height = Self.uint32(bytes, at: 20)
        guard (1...Int(Int32.max)).contains(width), (1...Int(Int32.max)).contains(height) else { throw .notPNG(name) }
    }

    /// Reads only the first 33 bytes of the file at `path` and parses them.
    /// Throws `.notPNG(path)` for other files and `.unreadable` if the file cannot be read.
    public static func read(path: String) throws(GalleryError) -> PNGHeader {
        guard let bytes = try POSIX.readFile(path, limit: byteCount) else {
            throw .unreadable(path: path, reason: POSIX.errorMessage(ENOENT))
        }
        return try PNGHeader(bytes: bytes, name: path)
    }

    private static func uint32(_ bytes: [UInt8], at offset: Int) -> Int {
        bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
    }
}

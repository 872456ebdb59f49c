/// Builds one request in the byte order we announce at setup ('l': least significant byte
/// first), so every encoder is a pure function from its arguments to bytes.
struct WireWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 32) { bytes.reserveCapacity(capacity) }

    mutating func u8(_ value: UInt8) { bytes.append(value) }

    mutating func bool(_ value: Bool) { bytes.append(value ? 1 : 0) }

    mutating func u16(_ value: UInt16) {
        bytes.append(UInt8(truncatingIfNeeded: value))
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
    }

    mutating func i16(_ value: Int16) { u16(UInt16(bitPattern: value)) }

    mutating func u32(_ value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    mutating func zeros(_ count: Int) { bytes.append(contentsOf: repeatElement(0, count: count)) }

    mutating func append<C: Collection>(_ data: C) where C.Element == UInt8 { bytes.append(contentsOf: data) }

    /// Zero bytes up to the next multiple of four, as every X11 list of bytes is padded.
    mutating func pad() { zeros(X11Wire.padding(bytes.count)) }
}

/// Sizes shared by the encoders and decoders.
enum X11Wire {
    /// Bytes needed after `count` bytes to reach a multiple of four.
    static func padding(_ count: Int) -> Int { (4 - count % 4) % 4 }

    /// A request's length field: its size in four-byte units. Requests are built padded, and
    /// callers keep them within the server's maximum (checked in `X11Connection.send`).
    static func lengthUnits(_ byteCount: Int) -> UInt16 {
        precondition(byteCount % 4 == 0 && byteCount / 4 <= Int(UInt16.max), "request of \(byteCount) bytes")
        return UInt16(byteCount / 4)
    }

    /// The most four-byte units the core length field (16 bits) holds: the longest request
    /// without BIG-REQUESTS, whatever the server's maximum.
    static let coreLengthLimit = Int(UInt16.max)

    /// The header of a request of 4 + `paddedBodyBytes` bytes: the core length field when it
    /// fits, else BIG-REQUESTS' extended form (length field 0, then a CARD32 length that counts
    /// the extra word too — BIG-REQUESTS spec, "Encoding").
    static func header(paddedBodyBytes: Int) throws(X11Error) -> (coreUnits: UInt16, extendedUnits: UInt32?, totalBytes: Int) {
        guard paddedBodyBytes >= 0, paddedBodyBytes % 4 == 0 else {
            throw .invalidArgument("a request body of \(paddedBodyBytes) bytes is not padded to four")
        }
        let coreUnits = 1 + paddedBodyBytes / 4
        if coreUnits <= coreLengthLimit { return (UInt16(coreUnits), nil, coreUnits * 4) }
        guard coreUnits < Int(UInt32.max) else {
            throw .invalidArgument("a request of \(paddedBodyBytes + 4) bytes is longer than BIG-REQUESTS can say")
        }
        return (0, UInt32(coreUnits + 1), (coreUnits + 1) * 4)
    }

    /// Finishes a request whose header's length field (bytes 2–3) was written as 0.
    static func finish(_ writer: WireWriter) -> [UInt8] {
        var bytes = writer.bytes
        let units = lengthUnits(bytes.count)
        bytes[2] = UInt8(truncatingIfNeeded: units)
        bytes[3] = UInt8(truncatingIfNeeded: units >> 8)
        return bytes
    }
}

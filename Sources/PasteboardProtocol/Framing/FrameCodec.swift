public import NIOCore

/// Reasons a byte stream is not a valid sequence of frames. Each is fatal to the connection.
public enum FrameError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The length field is larger than the receiver's maximum frame length.
    case frameTooLarge(length: Int, maximum: Int)
    /// The length field is smaller than the header it must contain.
    case frameTooShort(length: Int)
    /// The kind byte is not one v1 defines.
    case unknownKind(UInt8)
    /// Reserved flag bits were set.
    case reservedFlags(UInt8)

    public var description: String {
        switch self {
        case .frameTooLarge(let length, let maximum): "frame length \(length) exceeds the maximum \(maximum)"
        case .frameTooShort(let length): "frame length \(length) is shorter than the 6-byte header"
        case .unknownKind(let kind): "unknown frame kind \(kind)"
        case .reservedFlags(let flags): "reserved flag bits set (0x\(String(flags, radix: 16)))"
        }
    }

    /// The protocol error code a peer reports for this violation.
    public var code: ErrorCode {
        switch self {
        case .frameTooLarge: .frameTooLarge
        default: .malformedFrame
        }
    }
}

/// Pure encoding and decoding of frames, shared by the NIO handlers, tests and fuzzers.
public enum FrameCodec {
    /// Appends `frame` to `buffer`: length (u32 BE), kind (u8), flags (u8), request id (u32 BE), payload.
    public static func encode(_ frame: Frame, into buffer: inout ByteBuffer) {
        buffer.reserveCapacity(minimumWritableBytes: ProtocolLimits.lengthFieldSize + frame.length)
        encodeHeader(of: frame, into: &buffer)
        buffer.writeImmutableBuffer(frame.payload)
    }

    /// Appends `frame`'s length field and header, without its payload (which the caller sends next).
    public static func encodeHeader(of frame: Frame, into buffer: inout ByteBuffer) {
        // Stored byte by byte in one access: each `writeInteger` (and `writeMultipleIntegers`)
        // costs a bounds check, an exclusivity check and a copy through a temporary.
        let length = UInt32(frame.length), requestID = frame.requestID
        buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: ProtocolLimits.lengthFieldSize + ProtocolLimits.headerLength) { bytes in
            bytes[0] = UInt8(truncatingIfNeeded: length >> 24)
            bytes[1] = UInt8(truncatingIfNeeded: length >> 16)
            bytes[2] = UInt8(truncatingIfNeeded: length >> 8)
            bytes[3] = UInt8(truncatingIfNeeded: length)
            bytes[4] = frame.kind.rawValue
            bytes[5] = frame.flags.rawValue
            bytes[6] = UInt8(truncatingIfNeeded: requestID >> 24)
            bytes[7] = UInt8(truncatingIfNeeded: requestID >> 16)
            bytes[8] = UInt8(truncatingIfNeeded: requestID >> 8)
            bytes[9] = UInt8(truncatingIfNeeded: requestID)
            return ProtocolLimits.lengthFieldSize + ProtocolLimits.headerLength
        }
    }

    /// Decodes one frame from the front of `buffer`, consuming it; nil when more bytes are needed.
    ///
    /// The payload is a slice of `buffer`'s storage (no copy). Throws `FrameError` on a violation,
    /// as soon as the header shows it, without waiting for the payload.
    public static func decode(from buffer: inout ByteBuffer, maxFrameLength: Int) throws(FrameError) -> Frame? {
        // The header's fields in one look at the bytes (each `getInteger` is a bounds check and
        // an exclusivity check of its own); nil where they have not arrived yet.
        let available = buffer.readableBytes
        guard available >= ProtocolLimits.lengthFieldSize else { return nil }
        var header: (length: UInt32, kind: UInt8?, flags: UInt8?, requestID: UInt32) = (0, nil, nil, 0)
        buffer.withUnsafeReadableBytes { bytes in
            header.length = UInt32(bytes[0]) << 24 | UInt32(bytes[1]) << 16 | UInt32(bytes[2]) << 8 | UInt32(bytes[3])
            if bytes.count > 4 { header.kind = bytes[4] }
            if bytes.count > 5 { header.flags = bytes[5] }
            if bytes.count >= 10 {
                header.requestID = UInt32(bytes[6]) << 24 | UInt32(bytes[7]) << 16 | UInt32(bytes[8]) << 8 | UInt32(bytes[9])
            }
        }
        let frameLength = Int(header.length)
        if frameLength > maxFrameLength { throw .frameTooLarge(length: frameLength, maximum: maxFrameLength) }
        if frameLength < ProtocolLimits.headerLength { throw .frameTooShort(length: frameLength) }
        if let kindByte = header.kind, Frame.Kind(rawValue: kindByte) == nil { throw .unknownKind(kindByte) }
        if let flagsByte = header.flags, flagsByte & Frame.Flags.reserved.rawValue != 0 { throw .reservedFlags(flagsByte) }
        guard available >= ProtocolLimits.lengthFieldSize + frameLength, let kind = header.kind.flatMap(Frame.Kind.init(rawValue:)),
              let flags = header.flags else { return nil }
        buffer.moveReaderIndex(forwardBy: ProtocolLimits.lengthFieldSize + ProtocolLimits.headerLength)
        let payload = buffer.readSlice(length: frameLength - ProtocolLimits.headerLength)!
        return Frame(kind: kind, flags: Frame.Flags(rawValue: flags), requestID: header.requestID, payload: payload)
    }
}

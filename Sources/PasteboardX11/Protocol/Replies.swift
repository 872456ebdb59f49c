/// Decoders of the replies this module reads. Each takes the whole reply (32 bytes plus its
/// additional length) and checks every count against the bytes actually there.
public enum X11Reply {
    /// InternAtom's reply: the atom (none when `onlyIfExists` and the name is unknown).
    public static func internAtom(_ reply: [UInt8]) throws -> Atom {
        var reader = try body(reply, "InternAtom reply")
        return Atom(try reader.u32())
    }

    /// GetAtomName's reply: the name.
    public static func getAtomName(_ reply: [UInt8]) throws -> String {
        var reader = try body(reply, "GetAtomName reply")
        let length = Int(try reader.u16())
        try reader.skip(22)
        return try reader.string(length)
    }

    /// GetSelectionOwner's reply: the owner, or none.
    public static func getSelectionOwner(_ reply: [UInt8]) throws -> WindowID {
        var reader = try body(reply, "GetSelectionOwner reply")
        return WindowID(try reader.u32())
    }

    /// QueryExtension's reply.
    public static func queryExtension(_ reply: [UInt8]) throws -> ExtensionInfo? {
        var reader = try body(reply, "QueryExtension reply")
        let present = try reader.u8()
        let major = try reader.u8()
        let firstEvent = try reader.u8()
        let firstError = try reader.u8()
        return present == 0 ? nil : ExtensionInfo(majorOpcode: major, firstEvent: firstEvent, firstError: firstError)
    }

    /// XFIXES QueryVersion's reply: the version the server will speak.
    public static func xfixesQueryVersion(_ reply: [UInt8]) throws -> (major: UInt32, minor: UInt32) {
        var reader = try body(reply, "XFixesQueryVersion reply")
        return (try reader.u32(), try reader.u32())
    }

    /// BigReqEnable's reply: the maximum request length in four-byte units, now that the
    /// extended form is on. The caller checks it against the core maximum (a server that lowers
    /// it is broken).
    public static func bigRequestsEnable(_ reply: [UInt8]) throws -> UInt32 {
        var reader = try body(reply, "BigReqEnable reply")
        return try reader.u32()
    }

    /// GetProperty's reply.
    public static func getProperty(_ reply: [UInt8]) throws -> PropertyValue {
        var header = WireReader(reply, context: "GetProperty reply")
        try header.skip(1)
        let format = try header.u8()
        var reader = try body(reply, "GetProperty reply")
        let type = Atom(try reader.u32())
        let bytesAfter = try reader.u32()
        let itemCount = try reader.u32()
        try reader.skip(12)
        guard [0, 8, 16, 32].contains(format) else { throw X11Error.malformedFromServer("GetProperty reply: format \(format)") }
        let (byteCount, overflow) = itemCount.multipliedReportingOverflow(by: UInt32(format / 8))
        guard !overflow, Int(byteCount) <= reader.remaining else {
            throw X11Error.malformedFromServer("GetProperty reply: \(itemCount) items of \(format) bits in \(reader.remaining) bytes")
        }
        guard format != 0 || (itemCount == 0 && type == .none) else {
            throw X11Error.malformedFromServer("GetProperty reply: format 0 with a type or items")
        }
        // None is the type of a property that does not exist, which has no data: items under it
        // would be bytes a reader takes for a stale notification's and never counts.
        guard type != .none || itemCount == 0 else {
            throw X11Error.malformedFromServer("GetProperty reply: \(itemCount) items of type None")
        }
        return PropertyValue(type: type, format: format, bytesAfter: bytesAfter, data: Array(try reader.bytes(Int(byteCount))))
    }

    /// A reply's fields after its header (reply marker, one byte, sequence, length).
    static func body(_ reply: [UInt8], _ context: String) throws -> WireReader {
        var reader = WireReader(reply, context: context)
        guard reply.count >= 32, try reader.u8() == 1 else { throw X11Error.malformedFromServer("\(context): not a reply of 32 bytes or more") }
        try reader.skip(3)
        let units = try reader.u32()
        guard UInt64(units) * 4 + 32 == UInt64(reply.count) else {
            throw X11Error.malformedFromServer("\(context): length \(units) units does not match \(reply.count) bytes")
        }
        return reader
    }
}

/// What QueryExtension says about a present extension.
public struct ExtensionInfo: Equatable, Sendable {
    public let majorOpcode: UInt8
    public let firstEvent: UInt8
    public let firstError: UInt8
}

/// One read of a property.
public struct PropertyValue: Equatable, Sendable {
    /// The property's type; none when the property does not exist.
    public let type: Atom
    /// 8, 16 or 32 (0 when the property does not exist).
    public let format: UInt8
    /// How many bytes remain after this read (read on with a larger offset).
    public let bytesAfter: UInt32
    public let data: [UInt8]

    /// The data as a list of 32-bit items (atoms, for TARGETS), little-endian as we asked.
    public var items32: [UInt32] {
        guard format == 32 else { return [] }
        var items: [UInt32] = []
        items.reserveCapacity(data.count / 4)
        var index = 0
        while index + 4 <= data.count {
            var value: UInt32 = 0
            for byte in 0..<4 { value |= UInt32(data[index + byte]) << UInt32(8 * byte) }
            items.append(value)
            index += 4
        }
        return items
    }
}

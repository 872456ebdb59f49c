/// How ChangeProperty combines the new data with the old.
public enum PropertyMode: UInt8, Sendable {
    case replace = 0, prepend = 1, append = 2
}

extension X11Request {
    /// ChangeProperty (18): sets `property` of `window` to `data`, a list of `format`-bit items
    /// (8, 16 or 32; `data.count` must be a multiple of `format / 8`). Data that makes the
    /// request longer than 65535 units is encoded in BIG-REQUESTS' extended form.
    public static func changeProperty(
        _ mode: PropertyMode = .replace, window: WindowID, property: Atom, type: Atom, format: UInt8, data: [UInt8]
    ) throws(X11Error) -> X11Request {
        try changeProperty(mode, window: window, property: property, type: type, format: format, runs: data.isEmpty ? [] : [ByteRun(data)])
    }

    /// ChangeProperty with its data in `runs`, written to the socket from where they lie (the
    /// pieces a selection chunk was received in), never joined into one array first.
    public static func changeProperty(
        _ mode: PropertyMode = .replace, window: WindowID, property: Atom, type: Atom, format: UInt8, runs: [ByteRun]
    ) throws(X11Error) -> X11Request {
        let count = runs.byteCount
        guard [8, 16, 32].contains(format), count % Int(format / 8) == 0 else {
            throw .invalidArgument("ChangeProperty: \(count) bytes are not a list of \(format)-bit items")
        }
        guard count / Int(format / 8) <= Int(UInt32.max) else {
            throw .invalidArgument("ChangeProperty: \(count) bytes are more items than a CARD32 counts")
        }
        // Over 65535 units (about 256 KiB) the request takes BIG-REQUESTS' extended form; the
        // connection refuses it unless the server enabled BIG-REQUESTS for that length.
        return try withTrailer("ChangeProperty", opcode: 18, data: mode.rawValue, fieldBytes: 20, trailer: runs, expectsReply: false) { writer in
            writer.u32(window.rawValue)
            writer.u32(property.rawValue)
            writer.u32(type.rawValue)
            writer.u8(format)
            writer.zeros(3)
            writer.u32(UInt32(count / Int(format / 8)))
        }
    }

    /// DeleteProperty (19).
    public static func deleteProperty(window: WindowID, property: Atom) -> X11Request {
        core("DeleteProperty", opcode: 19, expectsReply: false) { writer in
            writer.u32(window.rawValue)
            writer.u32(property.rawValue)
        }
    }

    /// GetProperty (20): up to `longLength` four-byte units from `longOffset` (units) of
    /// `property`; with `delete`, the server deletes it once the read reaches its end (the
    /// INCR protocol's "ready for the next chunk").
    public static func getProperty(
        window: WindowID, property: Atom, type: Atom = .none, longOffset: UInt32 = 0, longLength: UInt32, delete: Bool
    ) -> X11Request {
        core("GetProperty", opcode: 20, data: delete ? 1 : 0, expectsReply: true) { writer in
            writer.u32(window.rawValue)
            writer.u32(property.rawValue)
            writer.u32(type.rawValue)
            writer.u32(longOffset)
            writer.u32(longLength)
        }
    }

    /// ChangeProperty of a list of 32-bit items (format 32): atoms or windows, such as XDND's
    /// XdndAware (type ATOM, the version: XDND spec, "XdndAware") and XdndTypeList (type ATOM,
    /// the offered types).
    public static func changeProperty(
        _ mode: PropertyMode = .replace, window: WindowID, property: Atom, type: Atom, items32: [UInt32]
    ) throws(X11Error) -> X11Request {
        var writer = WireWriter(capacity: items32.count * 4)
        for item in items32 { writer.u32(item) }
        return try changeProperty(mode, window: window, property: property, type: type, format: 32, data: writer.bytes)
    }
}

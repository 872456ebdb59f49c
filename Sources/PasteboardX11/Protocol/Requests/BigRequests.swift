/// The BIG-REQUESTS extension (BIG-REQUESTS spec, version 2.0): lifts the core protocol's
/// 16-bit request length (at most 65535 units, about 256 KiB) to a 32-bit one, as Xlib and xcb
/// do at connection. Why we want it: a selection owner sends each INCR chunk in one
/// ChangeProperty, and every chunk costs the requestor a PropertyNotify, a GetProperty and a
/// deletion through the server; with 256 KiB chunks a 256 MiB paste makes about a thousand of
/// those round trips, four times xclip's. `majorOpcode` comes from QueryExtension.
public enum BigRequests {
    public static let name = "BIG-REQUESTS"

    /// BigReqEnable (minor 0): from now on the server accepts requests in the extended form
    /// (length field 0, then a CARD32 length) up to the length its reply gives.
    public static func enable(majorOpcode: UInt8) -> X11Request {
        X11Request.core("BigReqEnable", opcode: majorOpcode, data: 0, expectsReply: true) { _ in }
    }
}

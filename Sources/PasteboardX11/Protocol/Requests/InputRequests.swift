/// How a grab treats the device's events (protocol spec, GrabPointer's pointer-mode and
/// keyboard-mode): asynchronous keeps them flowing, synchronous freezes the device until
/// AllowEvents, which a drag never wants.
public enum GrabMode: UInt8, Sendable {
    case synchronous = 0, asynchronous = 1
}

extension X11Request {
    /// GrabPointer (26): every pointer event of `eventMask` goes to `window` until UngrabPointer,
    /// wherever the pointer is: how a drag source keeps hearing the pointer over other clients'
    /// windows (XDND spec: the source grabs the pointer). `eventMask` must be a SETofPOINTEREVENT
    /// (`EventMask`'s button, motion and crossing bits); `confineTo` and `cursor` None leave the
    /// pointer free and its cursor unchanged. The reply is `X11Reply.grabStatus`.
    public static func grabPointer(
        _ window: WindowID, ownerEvents: Bool = false, eventMask: UInt32, pointerMode: GrabMode = .asynchronous,
        keyboardMode: GrabMode = .asynchronous, confineTo: WindowID = .none, cursor: UInt32 = 0, time: X11Timestamp = currentTime
    ) throws(X11Error) -> X11Request {
        guard eventMask & ~EventMask.pointerEvents == 0 else {
            throw .invalidArgument("GrabPointer: event mask 0x\(String(eventMask, radix: 16)) has bits that are not pointer events")
        }
        return core("GrabPointer", opcode: 26, data: ownerEvents ? 1 : 0, expectsReply: true) { writer in
            writer.u32(window.rawValue)
            writer.u16(UInt16(eventMask))  // checked above: within 0x7ffc
            writer.u8(pointerMode.rawValue)
            writer.u8(keyboardMode.rawValue)
            writer.u32(confineTo.rawValue)
            writer.u32(cursor)
            writer.u32(time)
        }
    }

    /// UngrabPointer (27): ends our grab, if we still hold it since `time`.
    public static func ungrabPointer(time: X11Timestamp = currentTime) -> X11Request {
        core("UngrabPointer", opcode: 27, expectsReply: false) { $0.u32(time) }
    }

    /// GrabKeyboard (31): every key event goes to `window` until UngrabKeyboard: how a drag
    /// hears Esc (XDND spec: Escape cancels) while the pointer is over another client's window.
    /// The reply is `X11Reply.grabStatus`.
    public static func grabKeyboard(
        _ window: WindowID, ownerEvents: Bool = false, time: X11Timestamp = currentTime,
        pointerMode: GrabMode = .asynchronous, keyboardMode: GrabMode = .asynchronous
    ) -> X11Request {
        core("GrabKeyboard", opcode: 31, data: ownerEvents ? 1 : 0, expectsReply: true) { writer in
            writer.u32(window.rawValue)
            writer.u32(time)
            writer.u8(pointerMode.rawValue)
            writer.u8(keyboardMode.rawValue)
            writer.zeros(2)
        }
    }

    /// UngrabKeyboard (32).
    public static func ungrabKeyboard(time: X11Timestamp = currentTime) -> X11Request {
        core("UngrabKeyboard", opcode: 32, expectsReply: false) { $0.u32(time) }
    }

    /// QueryPointer (38): where the pointer is, relative to the root and to `window`, and which
    /// buttons and modifiers are down (the handle's first position, or a drop without motion).
    public static func queryPointer(_ window: WindowID) -> X11Request {
        core("QueryPointer", opcode: 38, expectsReply: true) { $0.u32(window.rawValue) }
    }
}

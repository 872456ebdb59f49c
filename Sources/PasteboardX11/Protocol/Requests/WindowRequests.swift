/// Event mask bits (protocol spec, SETofEVENT) this module selects.
public enum EventMask {
    public static let propertyChange: UInt32 = 0x0040_0000
    /// DestroyNotify (among others) when the window is destroyed.
    public static let structureNotify: UInt32 = 0x0002_0000
}

extension X11Request {
    /// CreateWindow (1) of class InputOnly: an unmapped 1×1 window that exists only to own
    /// selections and receive properties, as every clipboard tool makes. `eventMask` is its only
    /// attribute (value-mask bit 0x800).
    public static func createInputOnlyWindow(_ window: WindowID, parent: WindowID, eventMask: UInt32) -> X11Request {
        core("CreateWindow", opcode: 1, data: 0, expectsReply: false) { writer in
            writer.u32(window.rawValue)
            writer.u32(parent.rawValue)
            writer.i16(-1)  // x, y: off screen, though an unmapped InputOnly window is never seen
            writer.i16(-1)
            writer.u16(1)  // width, height
            writer.u16(1)
            writer.u16(0)  // border width (must be 0 for InputOnly)
            writer.u16(2)  // class InputOnly
            writer.u32(0)  // visual CopyFromParent
            writer.u32(0x800)  // value mask: event-mask
            writer.u32(eventMask)
        }
    }

    /// ChangeWindowAttributes (2) setting only the event mask (value-mask bit 0x800): which
    /// events of `window` this client receives. Each client has its own mask on a window, so
    /// selecting on another client's window (a selection requestor's) does not disturb it.
    public static func changeEventMask(_ window: WindowID, eventMask: UInt32) -> X11Request {
        core("ChangeWindowAttributes", opcode: 2, expectsReply: false) { writer in
            writer.u32(window.rawValue)
            writer.u32(0x800)
            writer.u32(eventMask)
        }
    }

    /// DestroyWindow (4).
    public static func destroyWindow(_ window: WindowID) -> X11Request {
        core("DestroyWindow", opcode: 4, expectsReply: false) { $0.u32(window.rawValue) }
    }

    /// GetInputFocus (43): used only as a cheap round trip (its reply proves that every earlier
    /// request was processed), as XSync does.
    public static func getInputFocus() -> X11Request {
        core("GetInputFocus", opcode: 43, expectsReply: true) { _ in }
    }
}

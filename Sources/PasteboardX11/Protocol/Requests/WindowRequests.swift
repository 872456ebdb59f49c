/// Event mask bits (protocol spec, SETofEVENT) this module selects.
public enum EventMask {
    public static let keyPress: UInt32 = 0x0000_0001
    public static let keyRelease: UInt32 = 0x0000_0002
    public static let buttonPress: UInt32 = 0x0000_0004
    public static let buttonRelease: UInt32 = 0x0000_0008
    public static let enterWindow: UInt32 = 0x0000_0010
    public static let leaveWindow: UInt32 = 0x0000_0020
    public static let pointerMotion: UInt32 = 0x0000_0040
    /// MotionNotify only while some button is down (a drag's moves, not a hover's).
    public static let buttonMotion: UInt32 = 0x0000_2000
    public static let exposure: UInt32 = 0x0000_8000
    /// DestroyNotify, ConfigureNotify, MapNotify, UnmapNotify (among others) of the window.
    public static let structureNotify: UInt32 = 0x0002_0000
    public static let propertyChange: UInt32 = 0x0040_0000
    /// The bits SETofEVENT leaves unused (#xFE000000): a server answers them with BadValue.
    static let unused: UInt32 = 0xfe00_0000
    /// The bits a SETofPOINTEREVENT may hold (GrabPointer's mask: #xFFFF8003 unused).
    static let pointerEvents: UInt32 = 0x0000_7ffc
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

    /// CreateWindow (1) of class InputOutput: a window that is drawn and mapped, such as the drag
    /// handle and the drop zone. `depth` and `visual` 0 are CopyFromParent; `attributes` become
    /// the value list, in the order of their mask bits as the spec requires. A zero width or
    /// height, or event bits the spec leaves unused, are refused here rather than answered by
    /// the server with BadValue long after the call.
    public static func createWindow(
        _ window: WindowID, parent: WindowID, x: Int16, y: Int16, width: UInt16, height: UInt16, borderWidth: UInt16 = 0,
        depth: UInt8 = 0, visual: UInt32 = 0, attributes: WindowAttributes = WindowAttributes()
    ) throws(X11Error) -> X11Request {
        guard width > 0, height > 0 else { throw .invalidArgument("CreateWindow: a window of \(width)×\(height) has no area") }
        let values = try attributes.valueList()
        return core("CreateWindow", opcode: 1, data: depth, expectsReply: false) { writer in
            writer.u32(window.rawValue)
            writer.u32(parent.rawValue)
            writer.i16(x)
            writer.i16(y)
            writer.u16(width)
            writer.u16(height)
            writer.u16(borderWidth)
            writer.u16(1)  // class InputOutput
            writer.u32(visual)
            writer.u32(values.mask)
            for value in values.values { writer.u32(value) }
        }
    }

    /// MapWindow (8): shows `window` (an override-redirect one at once, others once the window
    /// manager lets them).
    public static func mapWindow(_ window: WindowID) -> X11Request {
        core("MapWindow", opcode: 8, expectsReply: false) { $0.u32(window.rawValue) }
    }

    /// UnmapWindow (10): hides `window` without destroying it (the handle between drags).
    public static func unmapWindow(_ window: WindowID) -> X11Request {
        core("UnmapWindow", opcode: 10, expectsReply: false) { $0.u32(window.rawValue) }
    }

    /// ConfigureWindow (12): moves, resizes or restacks `window` as `changes` says (only the
    /// fields it sets are sent). Refuses an empty change (the request would do nothing) and a
    /// zero width or height (BadValue).
    public static func configureWindow(_ window: WindowID, _ changes: WindowChanges) throws(X11Error) -> X11Request {
        let values = try changes.valueList()
        return core("ConfigureWindow", opcode: 12, expectsReply: false) { writer in
            writer.u32(window.rawValue)
            writer.u16(values.mask)
            writer.zeros(2)
            for value in values.values { writer.u32(value) }
        }
    }

    /// QueryTree (15): `window`'s root, parent and children (bottom to top). How the source
    /// finds the top-level client under the pointer when the window manager reparents: the
    /// child carrying WM_STATE (ICCCM §4.1.3.1) below the frame TranslateCoordinates names.
    public static func queryTree(_ window: WindowID) -> X11Request {
        core("QueryTree", opcode: 15, expectsReply: true) { $0.u32(window.rawValue) }
    }

    /// TranslateCoordinates (40): the point (`x`, `y`) of `source` in `destination`'s
    /// coordinates, and the child of `destination` containing it. From the root to the root at
    /// the pointer's position it names the top-level frame under the pointer, the first step of
    /// XDND's search for the window carrying XdndAware.
    public static func translateCoordinates(from source: WindowID, to destination: WindowID, x: Int16, y: Int16) -> X11Request {
        core("TranslateCoordinates", opcode: 40, expectsReply: true) { writer in
            writer.u32(source.rawValue)
            writer.u32(destination.rawValue)
            writer.i16(x)
            writer.i16(y)
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

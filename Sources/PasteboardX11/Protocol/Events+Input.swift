extension X11Event {
    /// Where the pointer was and what was held down when an input or crossing event happened:
    /// the fields those events share after their detail (protocol spec, "Events": KeyPress,
    /// EnterNotify).
    public struct PointerSnapshot: Equatable, Sendable {
        public let time: X11Timestamp
        public let root: WindowID
        /// The window the event is reported on (ours, or the grab window).
        public let event: WindowID
        /// The child of `event` the pointer is in, None if none.
        public let child: WindowID
        public let rootX: Int16
        public let rootY: Int16
        /// The position in `event`'s coordinates (0, 0 when not on the same screen).
        public let eventX: Int16
        public let eventY: Int16
        /// Buttons and modifiers down just before the event.
        public let state: KeyButtonMask

        public init(
            time: X11Timestamp, root: WindowID, event: WindowID, child: WindowID,
            rootX: Int16, rootY: Int16, eventX: Int16, eventY: Int16, state: KeyButtonMask
        ) {
            self.time = time
            self.root = root
            self.event = event
            self.child = child
            self.rootX = rootX
            self.rootY = rootY
            self.eventX = eventX
            self.eventY = eventY
            self.state = state
        }

        init(_ reader: inout WireReader) throws {
            self.init(
                time: try reader.u32(), root: WindowID(try reader.u32()), event: WindowID(try reader.u32()), child: WindowID(try reader.u32()),
                rootX: try reader.i16(), rootY: try reader.i16(), eventX: try reader.i16(), eventY: try reader.i16(),
                state: KeyButtonMask(rawValue: try reader.u16()))
        }
    }

    /// KeyPress, KeyRelease, ButtonPress, ButtonRelease and MotionNotify, which share one layout
    /// (protocol spec, "Events": KeyPress): what the drag handle hears of the pointer and, while
    /// it grabs the keyboard, of Esc.
    public struct InputEvent: Equatable, Sendable {
        /// The keycode (8 to 255) of a key event, the button (1 to 255) of a button event, 0
        /// (Normal) or 1 (Hint) for MotionNotify.
        public let detail: UInt8
        public let pointer: PointerSnapshot
        public let sameScreen: Bool

        public init(detail: UInt8, pointer: PointerSnapshot, sameScreen: Bool) {
            self.detail = detail
            self.pointer = pointer
            self.sameScreen = sameScreen
        }
    }

    /// What an EnterNotify or LeaveNotify says of the crossing (protocol spec, "Pointer Window
    /// Events").
    public enum CrossingDetail: UInt8, Sendable {
        case ancestor = 0, virtual = 1, inferior = 2, nonlinear = 3, nonlinearVirtual = 4
    }

    /// Why the pointer crossed: it moved, or a grab began or ended.
    public enum CrossingMode: UInt8, Sendable {
        case normal = 0, grab = 1, ungrab = 2
    }

    /// EnterNotify and LeaveNotify: the pointer came into or left a window (the drop zone's
    /// hover, the handle's highlight).
    public struct CrossingEvent: Equatable, Sendable {
        public let detail: CrossingDetail
        public let pointer: PointerSnapshot
        public let mode: CrossingMode
        /// Whether `event` is, or is an inferior of, the focus window.
        public let focus: Bool
        public let sameScreen: Bool

        public init(detail: CrossingDetail, pointer: PointerSnapshot, mode: CrossingMode, focus: Bool, sameScreen: Bool) {
            self.detail = detail
            self.pointer = pointer
            self.mode = mode
            self.focus = focus
            self.sameScreen = sameScreen
        }
    }

    /// The body of an input event (after code, detail and sequence). Refuses a keycode below 8
    /// (the spec: KEYCODE values are always greater than 7), button 0 (AnyButton, never in an
    /// event), a motion detail other than Normal and Hint, and a BOOL other than 0 and 1.
    static func decodeInput(code: UInt8, detail: UInt8, _ reader: inout WireReader) throws -> InputEvent {
        switch code {
        case 2, 3: guard detail >= 8 else { throw X11Error.malformedFromServer("key event with keycode \(detail)") }
        case 4, 5: guard detail != 0 else { throw X11Error.malformedFromServer("button event with button 0") }
        default: guard detail <= 1 else { throw X11Error.malformedFromServer("MotionNotify detail \(detail)") }
        }
        let pointer = try PointerSnapshot(&reader)
        return InputEvent(detail: detail, pointer: pointer, sameScreen: try reader.bool("input event's same-screen"))
    }

    /// The body of EnterNotify or LeaveNotify. Refuses an unknown detail or mode, and a last byte
    /// with bits other than focus (1) and same-screen (2).
    static func decodeCrossing(detail rawDetail: UInt8, _ reader: inout WireReader) throws -> CrossingEvent {
        guard let detail = CrossingDetail(rawValue: rawDetail) else { throw X11Error.malformedFromServer("crossing event detail \(rawDetail)") }
        let pointer = try PointerSnapshot(&reader)
        let rawMode = try reader.u8()
        guard let mode = CrossingMode(rawValue: rawMode) else { throw X11Error.malformedFromServer("crossing event mode \(rawMode)") }
        let flags = try reader.u8()
        guard flags & ~0x03 == 0 else { throw X11Error.malformedFromServer("crossing event flags 0x\(String(flags, radix: 16))") }
        return CrossingEvent(detail: detail, pointer: pointer, mode: mode, focus: flags & 0x01 != 0, sameScreen: flags & 0x02 != 0)
    }
}

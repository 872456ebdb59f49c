extension X11Event {
    /// Expose: part of a window needs drawing again (protocol spec, Expose). `count` says how many
    /// more Expose events follow for the same window, so drawing can wait for the last (0).
    public struct Expose: Equatable, Sendable {
        public let window: WindowID
        public let x: UInt16
        public let y: UInt16
        public let width: UInt16
        public let height: UInt16
        public let count: UInt16

        public init(window: WindowID, x: UInt16, y: UInt16, width: UInt16, height: UInt16, count: UInt16) {
            self.window = window
            self.x = x
            self.y = y
            self.width = width
            self.height = height
            self.count = count
        }
    }

    /// ConfigureNotify: a window's size, position, border or stacking changed (the handle after
    /// a move, the drop zone after the window manager resized it). A window manager sends a
    /// synthetic one (ICCCM §4.1.5) with root coordinates, so these are not dropped when sent.
    public struct ConfigureNotify: Equatable, Sendable {
        /// The window the event was selected on (the configured one, or its parent).
        public let event: WindowID
        public let window: WindowID
        /// The sibling just below, None if the window is at the bottom.
        public let aboveSibling: WindowID
        public let x: Int16
        public let y: Int16
        public let width: UInt16
        public let height: UInt16
        public let borderWidth: UInt16
        public let overrideRedirect: Bool

        public init(
            event: WindowID, window: WindowID, aboveSibling: WindowID, x: Int16, y: Int16, width: UInt16, height: UInt16,
            borderWidth: UInt16, overrideRedirect: Bool
        ) {
            self.event = event
            self.window = window
            self.aboveSibling = aboveSibling
            self.x = x
            self.y = y
            self.width = width
            self.height = height
            self.borderWidth = borderWidth
            self.overrideRedirect = overrideRedirect
        }
    }

    /// MapNotify and UnmapNotify: a window was shown or hidden. The flag is MapNotify's
    /// override-redirect, UnmapNotify's from-configure.
    public struct MapChange: Equatable, Sendable {
        public let event: WindowID
        public let window: WindowID
        public let flag: Bool

        public init(event: WindowID, window: WindowID, flag: Bool) {
            self.event = event
            self.window = window
            self.flag = flag
        }
    }

    static func decodeExpose(_ reader: inout WireReader) throws -> Expose {
        Expose(
            window: WindowID(try reader.u32()), x: try reader.u16(), y: try reader.u16(),
            width: try reader.u16(), height: try reader.u16(), count: try reader.u16())
    }

    static func decodeConfigure(_ reader: inout WireReader) throws -> ConfigureNotify {
        let event = WindowID(try reader.u32()), window = WindowID(try reader.u32()), above = WindowID(try reader.u32())
        let x = try reader.i16(), y = try reader.i16()
        let width = try reader.u16(), height = try reader.u16(), border = try reader.u16()
        return ConfigureNotify(
            event: event, window: window, aboveSibling: above, x: x, y: y, width: width, height: height,
            borderWidth: border, overrideRedirect: try reader.bool("ConfigureNotify's override-redirect"))
    }

    static func decodeMapChange(_ reader: inout WireReader, _ what: String) throws -> MapChange {
        let event = WindowID(try reader.u32()), window = WindowID(try reader.u32())
        return MapChange(event: event, window: window, flag: try reader.bool(what))
    }
}

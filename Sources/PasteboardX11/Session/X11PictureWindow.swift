/// A small window that shows a picture of its own: the drag handle and the drop zone. It is
/// override-redirect (no window manager frames or moves it, as for a tooltip), named with
/// WM_NAME and _NET_WM_NAME so a user's `xdotool search --name` or a test finds it, and draws
/// itself again on every Expose, since the server keeps no copy of what was drawn.
///
/// The picture is 32-bit pixels in the server's ZPixmap order for depth 24 (blue, green, red,
/// unused on a little-endian server: `X11Request.putImage`), row after row. Only roots of depth
/// 24 or 32 are drawn on; a server of another depth is refused when the window is made, so a
/// caller gets a clear error rather than a window of noise.
///
/// Not Sendable: it lives on the thread of its connection, which delivers its events.
public final class X11PictureWindow {
    public let connection: X11Connection
    public let window: WindowID
    public let width: UInt16
    public let height: UInt16
    /// The pixels drawn, `width` × `height` × 4 bytes.
    public private(set) var pixels: [UInt8]
    private let gc: GraphicsContextID
    private var isClosed = false

    /// The events the window selects besides Expose and StructureNotify, which it always needs.
    public static let inputEvents = EventMask.buttonPress | EventMask.buttonRelease | EventMask.buttonMotion | EventMask.keyPress

    /// Makes the window at (`x`, `y`) of the root (moved inside the screen when it would stand
    /// past an edge), names it `title`, selects `events` (Expose and StructureNotify always), and
    /// maps it. The picture is drawn when the first Expose comes (`handle(_:)`).
    public init(
        connection: X11Connection, title: String, x: Int, y: Int, width: Int, height: Int, pixels: [UInt8],
        events: UInt32 = X11PictureWindow.inputEvents
    ) throws(X11Error) {
        let setup = connection.setup
        guard setup.rootDepth == 24 || setup.rootDepth == 32 else {
            throw .invalidArgument("the screen's depth is \(setup.rootDepth) bits; only 24- and 32-bit screens are drawn on")
        }
        guard (1...Int(UInt16.max)).contains(width), (1...Int(UInt16.max)).contains(height) else {
            throw .invalidArgument("a window of \(width)×\(height) pixels cannot be made")
        }
        guard pixels.count == width * height * 4 else {
            throw .invalidArgument("\(pixels.count) bytes are not \(width)×\(height) pixels of four bytes")
        }
        self.connection = connection
        self.width = UInt16(width)
        self.height = UInt16(height)
        self.pixels = pixels
        let place = Self.place(x: x, y: y, width: width, height: height, screenWidth: Int(setup.rootWidth), screenHeight: Int(setup.rootHeight))
        window = WindowID(try connection.allocateID())
        try connection.send(.createWindow(
            window, parent: setup.root, x: place.x, y: place.y, width: self.width, height: self.height,
            attributes: WindowAttributes(
                backgroundPixel: 0, borderPixel: 0, overrideRedirect: true,
                eventMask: events | EventMask.exposure | EventMask.structureNotify)))
        gc = GraphicsContextID(try connection.allocateID())
        try connection.send(.createGC(gc, drawable: window, values: GraphicsContextValues(foreground: 0, graphicsExposures: false)))
        let names = try connection.internAtoms(["WM_NAME", "_NET_WM_NAME", "UTF8_STRING"])
        let title = Array(title.utf8)
        try connection.send(.changeProperty(window: window, property: names[0], type: .string, format: 8, data: title))
        try connection.send(.changeProperty(window: window, property: names[1], type: names[2], format: 8, data: title))
        try connection.send(.mapWindow(window))
    }

    /// The top-left corner of a window of `width` × `height` at (`x`, `y`), moved so that the
    /// whole window is on a screen of `screenWidth` × `screenHeight` where it fits, and kept in
    /// the range of a CreateWindow's coordinates whatever the caller computed.
    public static func place(x: Int, y: Int, width: Int, height: Int, screenWidth: Int, screenHeight: Int) -> (x: Int16, y: Int16) {
        func clamp(_ value: Int, size: Int, screen: Int) -> Int16 {
            let highest = max(0, screen - size)
            return Int16(clamping: min(max(value, 0), highest))
        }
        return (clamp(x, size: width, screen: screenWidth), clamp(y, size: height, screen: screenHeight))
    }

    /// Handles `event` if it is the window's: an Expose draws the picture again (once, at the
    /// last Expose of a series). True when the event was the window's.
    @discardableResult
    public func handle(_ event: X11Event) throws(X11Error) -> Bool {
        switch event {
        case let .expose(expose) where expose.window == window:
            if expose.count == 0 { try draw() }
            return true
        case let .mapNotify(notify) where notify.window == window: return true
        case let .configureNotify(notify) where notify.window == window: return true
        case let .unmapNotify(notify) where notify.window == window: return true
        default: return false
        }
    }

    /// Shows `pixels` (of the same size) from now on.
    public func show(_ pixels: [UInt8]) throws(X11Error) {
        guard pixels.count == self.pixels.count else {
            throw .invalidArgument("\(pixels.count) bytes are not \(width)×\(height) pixels of four bytes")
        }
        self.pixels = pixels
        try draw()
    }

    /// Draws the picture, in as many PutImage requests as the server's request length needs.
    public func draw() throws(X11Error) {
        guard !isClosed else { return }
        let depth = connection.setup.rootDepth
        for band in try X11Request.putImage(
            drawable: window, gc: gc, x: 0, y: 0, width: width, height: height, depth: depth, pixels: pixels,
            maximumRequestBytes: connection.maximumRequestBytes)
        {
            try connection.send(band)
        }
    }

    /// Destroys the window and its graphics context (errors ignored: the connection may be on its way out).
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        _ = try? connection.send(.freeGC(gc), ignoringErrors: true)
        _ = try? connection.send(.destroyWindow(window), ignoringErrors: true)
    }
}

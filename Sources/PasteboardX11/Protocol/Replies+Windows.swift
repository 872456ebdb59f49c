extension X11Reply {
    /// QueryTree's reply (protocol spec, QueryTree): the root, the parent (None for a root) and
    /// the children, bottom to top. The child count is checked against the reply's length
    /// before anything is sized by it.
    public static func queryTree(_ reply: [UInt8]) throws -> WindowTree {
        var reader = try body(reply, "QueryTree reply")
        let root = WindowID(try reader.u32())
        let parent = WindowID(try reader.u32())
        let count = Int(try reader.u16())
        try reader.skip(14)
        guard count * 4 == reader.remaining else {
            throw X11Error.malformedFromServer("QueryTree reply: \(count) children in \(reader.remaining) bytes")
        }
        var children: [WindowID] = []
        children.reserveCapacity(count)
        for _ in 0..<count { children.append(WindowID(try reader.u32())) }
        return WindowTree(root: root, parent: parent, children: children)
    }

    /// TranslateCoordinates' reply: whether the windows share a screen, the child of the
    /// destination containing the point (None if none), and the point in the destination's
    /// coordinates (0, 0 when not on the same screen).
    public static func translateCoordinates(_ reply: [UInt8]) throws -> TranslatedPoint {
        let sameScreen = try bool(reply, "TranslateCoordinates reply")
        var reader = try body(reply, "TranslateCoordinates reply")
        let child = WindowID(try reader.u32())
        let x = Int16(bitPattern: try reader.u16())
        let y = Int16(bitPattern: try reader.u16())
        return TranslatedPoint(sameScreen: sameScreen, child: child, x: x, y: y)
    }

    /// QueryPointer's reply: the pointer relative to its root and to the window asked about.
    public static func queryPointer(_ reply: [UInt8]) throws -> PointerPosition {
        let sameScreen = try bool(reply, "QueryPointer reply")
        var reader = try body(reply, "QueryPointer reply")
        let root = WindowID(try reader.u32())
        let child = WindowID(try reader.u32())
        let rootX = Int16(bitPattern: try reader.u16()), rootY = Int16(bitPattern: try reader.u16())
        let windowX = Int16(bitPattern: try reader.u16()), windowY = Int16(bitPattern: try reader.u16())
        let mask = KeyButtonMask(rawValue: try reader.u16())
        return PointerPosition(
            sameScreen: sameScreen, root: root, child: child, rootX: rootX, rootY: rootY, windowX: windowX, windowY: windowY, mask: mask)
    }

    /// GrabPointer's and GrabKeyboard's reply: the grab's status (its data byte).
    public static func grabStatus(_ reply: [UInt8]) throws -> GrabStatus {
        _ = try body(reply, "grab reply")
        guard let status = GrabStatus(rawValue: reply[1]) else {  // a reply is 32 bytes or more, checked by `body`
            throw X11Error.malformedFromServer("grab reply: status \(reply[1])")
        }
        return status
    }

    /// A reply's data byte read as a BOOL: 0 or 1, anything else refused.
    private static func bool(_ reply: [UInt8], _ context: String) throws -> Bool {
        _ = try body(reply, context)
        switch reply[1] {
        case 0: return false
        case 1: return true
        default: throw X11Error.malformedFromServer("\(context): BOOL \(reply[1])")
        }
    }
}

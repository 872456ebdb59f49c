/// The rectangle of an XdndStatus in root coordinates within which the target wants no further
/// XdndPosition (XDND spec, "XdndStatus": data.l[2] is `(x << 16) | y`, data.l[3] is
/// `(w << 16) | h`). An empty one (the usual) asks for every move.
public struct XdndRectangle: Hashable, Sendable {
    public var origin: XdndPoint
    public var width: UInt16
    public var height: UInt16

    /// No rectangle: positions are wanted everywhere.
    public static let empty = XdndRectangle(origin: XdndPoint(x: 0, y: 0), width: 0, height: 0)

    public init(origin: XdndPoint, width: UInt16, height: UInt16) {
        self.origin = origin
        self.width = width
        self.height = height
    }

    init(packedOrigin: UInt32, packedSize: UInt32) {
        origin = XdndPoint(packed: packedOrigin)
        width = UInt16(truncatingIfNeeded: packedSize >> 16)
        height = UInt16(truncatingIfNeeded: packedSize)
    }

    var packedSize: UInt32 { UInt32(width) << 16 | UInt32(height) }

    /// Whether `point` lies inside (computed in Int, so no edge of the 16-bit range overflows).
    public func contains(_ point: XdndPoint) -> Bool {
        let x = Int(point.x), y = Int(point.y), left = Int(origin.x), top = Int(origin.y)
        return x >= left && x < left + Int(width) && y >= top && y < top + Int(height)
    }
}

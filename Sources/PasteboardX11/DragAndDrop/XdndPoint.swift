/// A point in root-window coordinates as XdndPosition and XdndStatus pack it: x in the high 16
/// bits, y in the low 16 (XDND spec, "XdndPosition": `(x << 16) | y`). Both are the core
/// protocol's INT16, so every 32-bit word is some point and unpacking cannot fail.
public struct XdndPoint: Hashable, Sendable, CustomStringConvertible {
    public var x: Int16
    public var y: Int16

    public init(x: Int16, y: Int16) {
        self.x = x
        self.y = y
    }

    /// The point packed in one data item.
    public init(packed: UInt32) {
        x = Int16(bitPattern: UInt16(truncatingIfNeeded: packed >> 16))
        y = Int16(bitPattern: UInt16(truncatingIfNeeded: packed))
    }

    /// `(x << 16) | y`, each as its 16-bit pattern.
    public var packed: UInt32 { UInt32(UInt16(bitPattern: x)) << 16 | UInt32(UInt16(bitPattern: y)) }

    public var description: String { "(\(x), \(y))" }
}

/// A point in another window's coordinates (TranslateCoordinates' reply).
public struct TranslatedPoint: Equatable, Sendable {
    /// False when the two windows are on different screens (then `child` is None, `x`, `y` 0).
    public let sameScreen: Bool
    /// The destination's child that contains the point, None if no child does.
    public let child: WindowID
    public let x: Int16
    public let y: Int16

    public init(sameScreen: Bool, child: WindowID, x: Int16, y: Int16) {
        self.sameScreen = sameScreen
        self.child = child
        self.x = x
        self.y = y
    }
}

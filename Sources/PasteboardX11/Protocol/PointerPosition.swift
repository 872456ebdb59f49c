/// Where the pointer is (QueryPointer's reply).
public struct PointerPosition: Equatable, Sendable {
    /// False when the pointer is on another screen than the window asked about (then `child`
    /// is None and the window coordinates 0).
    public let sameScreen: Bool
    public let root: WindowID
    /// The asked window's child containing the pointer, None if none.
    public let child: WindowID
    public let rootX: Int16
    public let rootY: Int16
    public let windowX: Int16
    public let windowY: Int16
    /// Buttons and modifiers held down.
    public let mask: KeyButtonMask

    public init(sameScreen: Bool, root: WindowID, child: WindowID, rootX: Int16, rootY: Int16, windowX: Int16, windowY: Int16, mask: KeyButtonMask) {
        self.sameScreen = sameScreen
        self.root = root
        self.child = child
        self.rootX = rootX
        self.rootY = rootY
        self.windowX = windowX
        self.windowY = windowY
        self.mask = mask
    }
}

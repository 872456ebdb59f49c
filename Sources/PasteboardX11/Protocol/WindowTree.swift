/// A window's place in the tree (QueryTree's reply).
public struct WindowTree: Equatable, Sendable {
    public let root: WindowID
    /// None for a root window.
    public let parent: WindowID
    /// The children in stacking order, bottom first: the topmost child is the last.
    public let children: [WindowID]

    public init(root: WindowID, parent: WindowID, children: [WindowID]) {
        self.root = root
        self.parent = parent
        self.children = children
    }
}

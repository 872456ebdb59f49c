/// `wl_data_device_manager.dnd_action`, as a set: what a drag source allows and what a
/// destination takes. Of Wayland's actions the project's drag sessions know copy and move;
/// `ask` (the destination asks the user) has no counterpart and is never offered or chosen.
public struct DragActions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let copy = DragActions(rawValue: 1)
    public static let move = DragActions(rawValue: 2)
    public static let ask = DragActions(rawValue: 4)

    /// The bits Wayland defines; a compositor's others are ignored, never trusted.
    public static let known: DragActions = [.copy, .move, .ask]

    /// The actions in `value` a peer sent, unknown bits dropped.
    public init(wire value: UInt32) {
        self.init(rawValue: value & DragActions.known.rawValue)
    }

    /// The single action in this set, copy or move, when it holds exactly one of them.
    public var single: DragOperationKind? {
        switch self.intersection([.copy, .move]) {
        case .copy: .copy
        case .move: .move
        default: nil
        }
    }
}

/// What a finished Wayland drop did with the data: the library's copy and move.
public enum DragOperationKind: String, Sendable, Hashable {
    case copy
    case move
}

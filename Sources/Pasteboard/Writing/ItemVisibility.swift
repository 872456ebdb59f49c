internal import PasteboardProtocol

/// Who may load an item: a source can keep an item to its own process (a selection it shows
/// only itself, a drag within one window) while other processes still see that it exists.
public enum ItemVisibility: String, Sendable, Hashable, CaseIterable {
    /// Any process of the user.
    case all
    /// Only the process that wrote the item.
    case ownProcess = "own-process"

    init(_ wire: PasteboardProtocol.ItemVisibility) {
        switch wire {
        case .all: self = .all
        case .ownProcess: self = .ownProcess
        }
    }

    var wire: PasteboardProtocol.ItemVisibility {
        switch self {
        case .all: .all
        case .ownProcess: .ownProcess
        }
    }
}

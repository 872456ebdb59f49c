internal import PasteboardProtocol

/// What a drop does with the dragged items (UIKit's UIDropOperation without the refusals):
/// what a source allows and what a finished drop performed.
public enum DragOperation: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The destination gets a copy; the source keeps its original.
    case copy
    /// The destination gets the items, and the source deletes its originals once the drop finished.
    case move

    /// "copy" or "move", as pb and the protocol spell it.
    public var description: String { rawValue }

    init(_ wire: PasteboardProtocol.DragOperation) {
        switch wire {
        case .copy: self = .copy
        case .move: self = .move
        }
    }

    var wire: PasteboardProtocol.DragOperation {
        switch self {
        case .copy: .copy
        case .move: .move
        }
    }
}

/// A destination's answer to a drag (UIKit's UIDropOperation): take the items, or refuse or
/// end the drag.
public enum DropOperation: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// End the drag: nothing is transferred, the session ends cancelled.
    case cancel
    /// Refuse the drop; the session stays in flight for another destination.
    case forbidden
    /// Perform the drop as a copy.
    case copy
    /// Perform the drop as a move (a copy when the source does not allow move).
    case move

    /// The operation's name, as pb and the protocol spell it.
    public var description: String { rawValue }

    init(_ wire: PasteboardProtocol.DropOperation) {
        switch wire {
        case .cancel: self = .cancel
        case .forbidden: self = .forbidden
        case .copy: self = .copy
        case .move: self = .move
        }
    }

    var wire: PasteboardProtocol.DropOperation {
        switch self {
        case .cancel: .cancel
        case .forbidden: .forbidden
        case .copy: .copy
        case .move: .move
        }
    }
}

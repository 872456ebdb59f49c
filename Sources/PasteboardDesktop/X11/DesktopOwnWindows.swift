public import PasteboardX11
import Synchronization

/// The X11 windows the bridge itself owns selections with. An owner change to one of them is
/// the bridge's own echo (it took the selection to offer a pasteboard item), never a new copy
/// to import: without this check the two directions would ping-pong forever. The owner side
/// registers its window here before it takes a selection.
public final class DesktopOwnWindows: X11WindowRegistry {
    private let windows = Mutex<Set<WindowID>>([])

    public init() {}

    /// Marks `window` as ours.
    public func insert(_ window: WindowID) { _ = windows.withLock { $0.insert(window) } }

    /// Forgets `window` (it was destroyed).
    public func remove(_ window: WindowID) { _ = windows.withLock { $0.remove(window) } }

    /// Whether `window` is one of ours.
    public func contains(_ window: WindowID) -> Bool { windows.withLock { $0.contains(window) } }
}

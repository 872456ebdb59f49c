/// Where a session records the windows it owns selections with, so that the other sessions of
/// the same program (an importer watching the same selection) know an owner change to one of
/// them for their own echo. The program's own type conforms (the bridge's `DesktopOwnWindows`).
public protocol X11WindowRegistry: Sendable {
    /// Marks `window` as ours.
    func insert(_ window: WindowID)
    /// Forgets `window` (it was destroyed).
    func remove(_ window: WindowID)
    /// Whether `window` is one of ours.
    func contains(_ window: WindowID) -> Bool
}

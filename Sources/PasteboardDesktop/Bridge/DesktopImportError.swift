import PasteboardX11

/// Why a representation could not be fetched from the desktop owner. A load handler throwing
/// it makes the daemon report `source-unavailable` to the destination, with this text.
public enum DesktopImportError: Error, Sendable, CustomStringConvertible {
    /// The owner that offered the data has gone, or another client owns the selection now.
    case ownerGone(selection: String, target: String)
    /// Talking to the X server or the owner failed (the owner refused, did not answer within
    /// the bounded wait, or the display went away).
    case fetchFailed(selection: String, target: String, reason: String)
    /// A converted representation (Latin-1 text, a GNOME file list) is converted whole, so it
    /// may not exceed `limit` bytes.
    case tooLargeToConvert(target: String, limit: Int)
    /// The owner quit handing its data over (SAVE_TARGETS) without this target: the application
    /// did not list it, or it did not fit the manager's budget.
    case notHandedOver(selection: String, target: String)
    /// The destination stopped loading.
    case cancelled
    /// The bridge cannot watch or own the selection: the display server refused or dropped the
    /// connection (no data control, no primary selection, the compositor quit).
    case displayFailed(selection: String, reason: String)

    public var description: String {
        switch self {
        case let .ownerGone(selection, target):
            "the desktop application that copied \(target) to \(selection) is gone (its data went with it)"
        case let .fetchFailed(selection, target, reason):
            "cannot fetch \(target) from the owner of \(selection): \(reason)"
        case let .tooLargeToConvert(target, limit):
            "\(target) is over \(limit) bytes, the most the bridge converts"
        case let .notHandedOver(selection, target):
            "the desktop application that copied \(target) to \(selection) quit without handing it over (not listed at exit, or over the clipboard manager's budget)"
        case .cancelled:
            "cancelled"
        case let .displayFailed(selection, reason):
            "cannot bridge \(selection): \(reason)"
        }
    }
}

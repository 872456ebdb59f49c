/// Why the bridge could not offer a pasteboard's content to the desktop, or refused one
/// desktop request for it.
public enum DesktopExportError: Error, Sendable, CustomStringConvertible {
    /// The display could not be reached, or the connection to it failed while serving.
    case displayFailed(selection: String, reason: String)
    /// A request for content the pasteboard no longer has: it changed after the bridge took the
    /// selection for `exported` (the selection is being handed over to the newer content).
    case pasteboardChanged(exported: Int, current: Int)
    /// A request for a target the bridge does not offer.
    case notOffered(target: String)
    /// Loading the representation from the daemon failed: `code` is the daemon's stable error
    /// code when it gave one (`source-unavailable`: the lazy source that promised it is gone).
    case loadFailed(target: String, code: String?, message: String)

    public var description: String {
        switch self {
        case let .displayFailed(selection, reason):
            "cannot offer the pasteboard as \(selection): \(reason)"
        case let .pasteboardChanged(exported, current):
            "the pasteboard changed (change \(exported) was offered, it is at \(current) now)"
        case let .notOffered(target):
            "\(target) is not offered"
        case let .loadFailed(target, code, message):
            "cannot load \(target) from the pasteboard\(code.map { " (\($0))" } ?? ""): \(message)"
        }
    }
}

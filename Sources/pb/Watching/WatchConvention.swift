import PasteboardProtocol

/// How a watch's command learns what the change left (see ``WatchExec``): pb's own variables,
/// or the `CLIPBOARD_STATE` protocol of wl-clipboard 2.2 and later, for `wl-paste --watch`.
enum WatchConvention: Sendable, Equatable {
    /// `PASTEBOARD_STATE` (`data`, `clear`, `sensitive`), `PASTEBOARD_CHANGE_COUNT`, and
    /// `PASTEBOARD_TYPE` once the type is known. A command's failure is reported on stderr.
    case pasteboard
    /// `CLIPBOARD_STATE`: `data`; `nil` for an empty pasteboard when the watch starts; `clear`
    /// when a change emptied it (an explicit clear, which the daemon knows apart and wl-paste
    /// cannot); `sensitive` for a secret, whose content the command gets too (as wl-paste gives
    /// it). Nothing is reported about the command's exit, as wl-paste reports nothing.
    case clipboardState

    /// The variables to set (nil: to remove) for a run on `change`, the watch's first when `first`.
    func variables(for change: ItemsReply, state: PasteboardState, first: Bool) -> [(String, String?)] {
        switch self {
        case .pasteboard:
            return [("PASTEBOARD_STATE", state.rawValue), ("PASTEBOARD_CHANGE_COUNT", String(change.changeCount)), ("PASTEBOARD_TYPE", nil)]
        case .clipboardState:
            let value = switch state {
            case .data: "data"
            case .sensitive: "sensitive"
            case .clear: first ? "nil" : "clear"
            }
            return [("CLIPBOARD_STATE", value)]
        }
    }

    /// Whether a command that exits non-zero is reported on stderr.
    var reportsFailedRuns: Bool { self == .pasteboard }
}

import PasteboardProtocol

/// What a change left on a pasteboard, as `pb watch --exec` tells its command in
/// `PASTEBOARD_STATE` (the values of wl-paste's `CLIPBOARD_STATE`).
enum PasteboardState: String, Sendable {
    /// Items whose content the command gets on stdin.
    case data
    /// No items: the pasteboard was cleared (or is empty).
    case clear
    /// A secret (an item marked sensitive): by default the command's stdin is empty.
    case sensitive

    /// The state of the content `change` describes.
    init(_ change: ItemsReply) {
        if change.items.isEmpty {
            self = .clear
        } else if change.items.contains(where: \.isSensitive) {
            self = .sensitive
        } else {
            self = .data
        }
    }
}

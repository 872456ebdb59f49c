/// The two selections of a seat: the clipboard (Ctrl+C / Ctrl+V) and the primary selection
/// (select / middle-click), which the bridge maps to the `general` and `primary` pasteboards.
public enum SelectionKind: String, Sendable, Hashable, CustomStringConvertible {
    case clipboard
    case primary

    public var description: String { rawValue }
}

/// A desktop selection the bridge mirrors, and the pasteboard it becomes: the clipboard
/// (`CLIPBOARD`, what Ctrl+C / Ctrl+V use) is `general`, the primary selection (`PRIMARY`,
/// the mouse selection pasted with the middle button) is `primary`, as issue 26 asks.
public enum DesktopSelection: String, Sendable, CaseIterable {
    case clipboard
    case primary

    /// The X11 selection atom's name.
    public var x11Name: String {
        switch self {
        case .clipboard: "CLIPBOARD"
        case .primary: "PRIMARY"
        }
    }

    /// The pasteboard the selection's content goes on.
    public var pasteboardName: String {
        switch self {
        case .clipboard: "general"
        case .primary: "primary"
        }
    }
}

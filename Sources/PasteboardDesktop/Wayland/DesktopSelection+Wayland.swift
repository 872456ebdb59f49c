public import PasteboardWayland

extension DesktopSelection {
    /// The Wayland selection it is: the seat's selection, or its primary selection.
    public var waylandKind: SelectionKind {
        switch self {
        case .clipboard: .clipboard
        case .primary: .primary
        }
    }
}

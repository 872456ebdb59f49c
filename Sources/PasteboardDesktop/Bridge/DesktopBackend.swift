public import PasteboardWayland
public import PasteboardX11

/// The display the bridge serves once it connected: which one, through which protocol.
public enum DesktopBackend: Sendable, Equatable, CustomStringConvertible {
    /// An X server, through the core protocol and XFIXES.
    case x11(DisplayName)
    /// A Wayland compositor, through its data-control protocol; `hasPrimary` when it reports
    /// the primary selection (ext, or wlr version 2).
    case wayland(socketPath: String, dataControl: DataControlProtocol, hasPrimary: Bool)

    /// The display, as `pb bridge` shows it.
    public var display: String {
        switch self {
        case .x11(let name): name.text
        case .wayland(let path, _, _): path
        }
    }

    /// The protocol, as `pb bridge` shows it.
    public var protocolName: String {
        switch self {
        case .x11: "x11"
        case .wayland(_, let dataControl, _): dataControl.rawValue
        }
    }

    public var description: String {
        switch self {
        case .x11(let name): "X11 display \(name.text)"
        case .wayland(let path, let dataControl, _): "Wayland display \(path) (\(dataControl.rawValue))"
        }
    }
}

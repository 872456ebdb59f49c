/// The desktop side of a bridge scenario: a display server the bench started, and the peer tool
/// that is both the baseline's source and the destination of every paste (xclip on Xvfb,
/// wl-copy and wl-paste on a headless sway).
struct DesktopPeer {
    /// "X11" or "Wayland", for the table.
    let name: String
    /// What the daemon gets in its environment to start its bridge on this display.
    let daemonDisplay: [String: String]
    /// The peer tools' environment (this display, no other), made once before any timing.
    let environment: ChildEnvironment
    /// The program copying (the baseline's source) and pasting, by name, for the table.
    let copyName: String
    let pasteName: String
    private let copyTool: String
    private let pasteTool: String
    private let isX11: Bool

    /// The X11 peer: xclip on `server`.
    static func x11(_ server: XServer) -> DesktopPeer? {
        guard let xclip = Spawned.find("xclip") else { return nil }
        return DesktopPeer(
            name: "X11", daemonDisplay: ["DISPLAY": server.display],
            environment: ChildEnvironment(setting: ["DISPLAY": server.display], removing: ["WAYLAND_DISPLAY"]),
            copyName: "xclip -i", pasteName: "xclip -o", copyTool: xclip, pasteTool: xclip, isX11: true)
    }

    /// The Wayland peer: wl-copy and wl-paste on `server`.
    static func wayland(_ server: WaylandServer) -> DesktopPeer? {
        guard let copy = Spawned.find("wl-copy"), let paste = Spawned.find("wl-paste") else { return nil }
        return DesktopPeer(
            name: "Wayland", daemonDisplay: ["WAYLAND_DISPLAY": server.socketPath],
            environment: ChildEnvironment(setting: ["WAYLAND_DISPLAY": server.socketPath], removing: ["DISPLAY"]),
            copyName: "wl-copy", pasteName: "wl-paste", copyTool: copy, pasteTool: paste, isX11: false)
    }

    /// Starts the peer owning the clipboard with the bytes of `file` as `target`; it stays (in
    /// the foreground) to serve them until stopped or replaced. Returns the process.
    func copy(_ file: String, as target: String) throws -> Spawned {
        if isX11 {
            return try Spawned.start([copyTool, "-selection", "clipboard", "-quiet", "-t", target, "-i", file], environment: environment)
        }
        return try Spawned.start([copyTool, "--foreground", "--type", target], stdin: file, environment: environment)
    }

    /// The command pasting the clipboard's `target` to its standard output.
    func pasteCommand(_ target: String) -> [String] {
        isX11
            ? [pasteTool, "-selection", "clipboard", "-o", "-t", target]
            : [pasteTool, "--no-newline", "--type", target]
    }

    /// The command listing the clipboard's targets (MIME types) one a line.
    var listCommand: [String] {
        isX11 ? [pasteTool, "-selection", "clipboard", "-o", "-t", "TARGETS"] : [pasteTool, "--list-types"]
    }
}

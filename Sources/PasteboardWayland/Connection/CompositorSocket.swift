/// Where the compositor's socket is, found the way libwayland-client finds it, so the daemon
/// connects wherever every other Wayland client of the session does.
public enum CompositorSocket {
    /// The socket name libwayland uses when `WAYLAND_DISPLAY` is not set.
    public static let defaultDisplay = "wayland-0"

    /// The socket path for `environment`: `WAYLAND_DISPLAY` as is when absolute, else inside
    /// `XDG_RUNTIME_DIR`; `wayland-0` when `WAYLAND_DISPLAY` is unset or empty. (libwayland's
    /// `WAYLAND_SOCKET`, an inherited descriptor, is for clients a compositor starts; the daemon
    /// is not one.)
    public static func resolve(environment: [String: String]) throws(WaylandError) -> String {
        var display = environment["WAYLAND_DISPLAY"] ?? ""
        if display.isEmpty { display = defaultDisplay }
        let path: String
        if display.hasPrefix("/") {
            path = display
        } else {
            guard let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty else {
                throw .missingRuntimeDirectory(display: display)
            }
            path = runtime.hasSuffix("/") ? runtime + display : runtime + "/" + display
        }
        // sockaddr_un's sun_path holds 108 bytes, the NUL included.
        guard path.utf8.count < 108 else { throw .socketPathTooLong(path: path) }
        return path
    }
}

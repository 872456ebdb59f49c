public import PasteboardSystem
public import PasteboardWayland
import PasteboardX11

/// Where the bridge finds the Wayland compositor and how long it waits on it and on selection
/// owners: what the importer's and the exporter's connections are made from.
public struct WaylandDisplay: Sendable {
    /// The compositor's socket (nil: found from `environment` as libwayland-client finds it,
    /// `WAYLAND_DISPLAY` absolute or relative to `XDG_RUNTIME_DIR`, default `wayland-0`).
    public var socketPath: String?
    /// The environment giving `WAYLAND_DISPLAY` and `XDG_RUNTIME_DIR`.
    public var environment: [String: String]
    /// The bounded wait for the compositor's set-up and for each answer of an owner: an owner
    /// silent that long fails the load (`source-unavailable`) instead of hanging it.
    public var ownerTimeout: Duration

    public init(socketPath: String? = nil, environment: [String: String] = ProcessEnvironment.current(), ownerTimeout: Duration = .seconds(5)) {
        self.socketPath = socketPath
        self.environment = environment
        self.ownerTimeout = ownerTimeout
    }

    /// The socket path the bridge connects to.
    public func resolvedSocketPath() throws(WaylandError) -> String {
        if let socketPath { return socketPath }
        return try CompositorSocket.resolve(environment: environment)
    }

    /// A new data-control connection for `selection`, its current selections known; fails with
    /// the compositor's reason (no data control, no primary selection on zwlr version 1, ...).
    func connect(for selection: DesktopSelection) async throws(DesktopImportError) -> PasteboardWayland.SelectionReader {
        let kind = selection.waylandKind
        let reader: PasteboardWayland.SelectionReader
        do throws(WaylandError) {
            reader = try await PasteboardWayland.SelectionReader.connect(socketPath: resolvedSocketPath(), timeout: ownerTimeout)
        } catch {
            throw .displayFailed(selection: kind.waylandName, reason: error.description)
        }
        if kind == .primary, !reader.hasPrimarySelection {
            reader.close()
            throw .displayFailed(selection: kind.waylandName, reason: WaylandError.primarySelectionUnsupported.description)
        }
        return reader
    }

    /// The error a bridge direction ends with when its connection to the compositor ended
    /// under it (the compositor quit or dropped us): the bridge reconnects on it.
    static func connectionEnded(_ reader: PasteboardWayland.SelectionReader, selection: DesktopSelection) -> DesktopImportError {
        let reason = reader.failure?.description ?? WaylandError.connectionClosed.description
        return .displayFailed(selection: selection.waylandKind.waylandName, reason: reason)
    }
}

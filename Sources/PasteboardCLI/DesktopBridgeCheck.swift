public import PasteboardSystem

/// Whether the desktop bridge can show a drag handle or a drop zone now, read from its status
/// file: what `--desktop` tells the user before it relies on it.
public enum DesktopBridgeCheck {
    /// What the bridge's status says.
    public enum Verdict: Sendable, Equatable {
        /// It bridges a display, X11 or Wayland: handles and zones are shown there.
        case shown(display: String)
        /// It runs but is not bridging yet (it waits for its display): they will be shown once it does.
        case pending(String)
        /// Nothing will be shown: no bridge, none with a display, or a display of a kind without them.
        case unavailable(String)
    }

    /// The verdict for the daemon at `socketPath`.
    public static func verdict(socketPath: String = SocketLocation.currentSocketPath()) -> Verdict {
        let files = BridgeStatusFile(socketPath: socketPath)
        guard let status = try? files.read(), files.isHeld() else {
            return .unavailable("no desktop bridge is running for \(socketPath) (pasteboardd starts one when its environment names a display; see pasteboard-bridge(8))")
        }
        switch status.state {
        case .bridging:
            return .shown(display: status.display ?? "the display")
        case .waiting:
            return .pending("the desktop bridge is not bridging yet (\(status.reason ?? "waiting")); it will show it once it is")
        case .off:
            return .unavailable("the desktop bridge is off: \(status.reason ?? "it has no display")")
        }
    }
}

extension DesktopBridgeCheck {
    /// For `drag --desktop`: a note on stderr when the handle will not be shown (now or at all);
    /// the session is lifted all the same, for destinations of the daemon.
    public static func noteUnlessShown(tool: String) {
        switch verdict() {
        case .shown: break
        case let .pending(reason): Output.printError("\(tool): \(reason)")
        case let .unavailable(reason): Output.printError("\(tool): the session is not shown on the desktop: \(reason)")
        }
    }
}

public import PasteboardX11
import PasteboardWayland

/// Which displays the bridge may serve, read from the environment the way each display's own
/// client library reads it, in the order issue 26 asks: Wayland first (through data-control),
/// X11 where data-control is missing. Two adapters on one clipboard the compositor already
/// syncs with Xwayland would ping-pong, so only the first that works is used.
///
/// Pure: what the environment says, decided without connecting anywhere.
public struct DisplayChoice: Sendable, Equatable {
    /// A display the bridge may connect to.
    public enum Candidate: Sendable, Equatable, CustomStringConvertible {
        /// A Wayland compositor's socket (`WAYLAND_DISPLAY`, relative to `XDG_RUNTIME_DIR`
        /// unless absolute).
        case wayland(socketPath: String)
        /// An X server (`DISPLAY`, with `XAUTHORITY` or `~/.Xauthority`).
        case x11(DisplayName)

        public var description: String {
            switch self {
            case .wayland(let path): "Wayland display \(path)"
            case .x11(let name): "X11 display \(name.text)"
            }
        }
    }

    /// The displays to try, most preferred first.
    public var candidates: [Candidate]
    /// Why a display the environment names is not a candidate (a forwarded X display, a
    /// malformed name), for one log line each.
    public var notes: [String]

    /// The choice for `environment`; a TCP display (`ssh -X`'s `localhost:10.0`) only with
    /// `allowRemote`, since it dies with the session that forwarded it.
    public init(environment: [String: String], allowRemote: Bool) {
        candidates = []
        notes = []
        if let display = environment["WAYLAND_DISPLAY"], !display.isEmpty {
            do {
                candidates.append(.wayland(socketPath: try CompositorSocket.resolve(environment: environment)))
            } catch {
                notes.append("WAYLAND_DISPLAY=\(display) is not used: \(error)")
            }
        }
        if let display = environment["DISPLAY"], !display.isEmpty {
            do {
                let name = try DisplayName(display)
                if name.isLocal || allowRemote {
                    candidates.append(.x11(name))
                } else {
                    notes.append("DISPLAY=\(display) is a forwarded (TCP) display, which dies with its session: not bridged unless asked for (bridge-remote-display)")
                }
            } catch {
                notes.append("DISPLAY=\(display) is not used: \(error)")
            }
        }
    }

    /// Whether the environment names no display at all: a server, a plain SSH session.
    public var isEmpty: Bool { candidates.isEmpty }
}

/// The decoders `pasteboard-fuzz` drives, each with the invariants it must keep on any input.
/// (Its `requests` target, the daemon's request handling, is PasteboardDaemonFuzzing's
/// `RequestFuzzing`, kept out of this module so that the tests replaying these targets' inputs
/// do not build the daemon.)
///
/// `run(_:)` feeds arbitrary bytes to one decoder and checks what it returns. Decoders may reject
/// input (that is their job); they must never trap, and what they accept must survive a round trip.
/// A broken invariant stops the process with `fatalError`, which libFuzzer reports as a crash.
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// `FrameCodec.decode(from:maxFrameLength:)` on a byte stream.
    case frames
    /// `MessageCodec.decode(_:)` on a message frame's payload.
    case messages
    /// `TypeRegistry.parseDeclarationFile(_:source:)` on a declaration file, then adding the result to the built-ins.
    case declarations
    /// The X11 decoders of the desktop bridge: the setup reply, events, errors, replies, Xauthority files.
    case x11
    /// The Wayland wire reader and decoder of the desktop bridge, on a stream of messages.
    case wayland
    /// The Wayland data-control state machine after a well-formed set-up, driven by a scripted
    /// compositor's events (`WaylandSessionFuzzing`).
    case waylandSession = "wayland-session"
    /// The X11 selection reader and owner on a connection to a scripted X server that plays
    /// the server and the other clients as the input says (`X11SessionFuzzing`).
    case x11Session = "x11-session"

    /// Runs `input` through the target's decoder, checks its invariants, and returns a one-line
    /// summary of what the decoder made of it (for the replayer).
    @discardableResult
    public func run(_ input: UnsafeRawBufferPointer) -> String {
        switch self {
        case .frames: FrameFuzzing.run(input)
        case .messages: MessageFuzzing.run(input)
        case .declarations: DeclarationFuzzing.run(input)
        case .x11: DesktopWireFuzzing.runX11(input)
        case .wayland: DesktopWireFuzzing.runWayland(input)
        case .waylandSession: WaylandSessionFuzzing.run(input)
        case .x11Session: X11SessionFuzzing.run(input)
        }
    }

    /// `run(_:)` on an array of bytes, e.g. a file's contents.
    @discardableResult
    public func run(_ input: [UInt8]) -> String {
        input.withUnsafeBytes { run($0) }
    }
}

/// Stops the process because `target` broke an invariant; libFuzzer saves the input as a crash.
func invariantViolated(_ target: FuzzTarget, _ message: String) -> Never {
    invariantViolated(named: target.rawValue, message)
}

/// Stops the process because the target named `target` broke an invariant (for the targets of
/// other modules, such as `requests`).
package func invariantViolated(named target: String, _ message: String) -> Never {
    fatalError("\(target): invariant violated: \(message)")
}

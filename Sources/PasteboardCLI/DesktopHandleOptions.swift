public import ArgumentParser

/// `--desktop` and `--desktop-at X,Y` of the drag commands (`pb drag`, `gallery drag`): whether
/// and where the desktop bridge shows the session as a drag handle.
public struct DesktopHandleOptions: ParsableArguments {
    @Flag(name: .customLong("desktop"), help: ArgumentHelp(
        "Also show the session on the desktop as a drag handle, from which it can be dragged into any application (needs the desktop bridge, on X11 or Wayland).",
        discussion: "The handle shows each item's name and the count; press on it and drag. Esc during the drag cancels the session."))
    public var desktop = false

    @Option(name: .customLong("desktop-at"), help: ArgumentHelp(
        "Show the drag handle with its top-left corner here (pixels from the screen's top-left corner) instead of near the pointer (X11: on Wayland the compositor places windows); implies --desktop.",
        valueName: "x,y"))
    public var desktopAt: String?

    public init() {}

    /// Whether a handle is asked for, by either option.
    public var isRequested: Bool { desktop || desktopAt != nil }

    /// Where the handle goes, nil: near the pointer. Throws a usage error for a bad `--desktop-at`.
    public func origin() throws(CLIError) -> (x: Int, y: Int)? {
        try desktopAt.map { text throws(CLIError) in try HandlePosition.parse(text).get() }
    }

    /// Refuses a bad `--desktop-at`, and a handle for a session `restricted` to its application.
    public func validate(restricted: Bool) throws {
        if let desktopAt, case let .failure(error) = HandlePosition.parse(desktopAt) { throw ValidationError(error.description) }
        if isRequested, restricted {
            throw ValidationError("--desktop shows the session to every application of the desktop; it cannot be --restricted")
        }
    }
}

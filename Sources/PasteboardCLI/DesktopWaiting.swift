public import Pasteboard
public import PasteboardTypes

/// `--desktop` on a drop command: say where the drop zone is (or why none will be shown), then
/// wait for a desktop application's drop into it until one comes or the user interrupts.
public enum DesktopWaiting {
    /// Tells the user on stderr what will show the zone; fails when nothing will.
    public static func announce(tool: String) throws(CLIError) {
        switch DesktopBridgeCheck.verdict() {
        case let .shown(display):
            Output.printError("\(tool): waiting for a drop from the desktop: the drop zone is shown on \(display) (Ctrl+C to stop)")
        case let .pending(reason):
            Output.printError("\(tool): waiting for a drop from the desktop: \(reason) (Ctrl+C to stop)")
        case let .unavailable(reason):
            throw .failure("no drop zone can be shown: \(reason)")
        }
    }

    /// The session a desktop drop into a zone titled `title` becomes (see `DropSession.fromDesktop`).
    public static func drop(title: String, accepting types: [TypeIdentifier], on connection: PasteboardConnection) async throws -> DropSession {
        try await Signals.cancellingOnInterrupt {
            try await DropSession.fromDesktop(title: title, accepting: types, on: connection)
        }
    }
}

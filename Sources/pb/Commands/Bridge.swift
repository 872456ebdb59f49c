import ArgumentParser
import PasteboardCLI

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PasteboardSystem

/// `pb bridge`: what the desktop bridge does — which display, which protocol, who owns each
/// selection — read from the status it keeps beside the daemon's socket.
struct Bridge: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bridge",
        abstract: "Show the desktop bridge: its display and protocol, and who owns the clipboard and the primary selection.",
        discussion: """
            The bridge (pasteboard-bridge, started by pasteboardd when its environment names a display) \
            makes the general pasteboard the X11/Wayland clipboard and primary the primary selection. \
            An owner is "pasteboard" when the bridge offers the pasteboard's item to the desktop, \
            "desktop" when another application owns the selection (its copy was imported), "none" \
            otherwise. Exits 0 when a bridge runs, 1 when none does (the reason is shown).
            """
    )

    @Flag(name: .long, help: "Print JSON: {running, socket, status} with the status as the bridge wrote it.")
    var json = false

    /// What `--json` prints.
    struct Report: Encodable {
        let running: Bool
        let socket: String
        let status: BridgeStatus?
    }

    func run() throws {
        let socket = SocketLocation.currentSocketPath()
        let files = BridgeStatusFile(socketPath: socket)
        let status: BridgeStatus?
        do {
            status = try files.read()
        } catch {
            throw CLIError.failure(error.description)
        }
        let running = files.isHeld()
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            try Output.printLine(String(decoding: try encoder.encode(Report(running: running, socket: socket, status: status)), as: UTF8.self))
        } else {
            try Output.printLine(Self.describe(status, running: running, socket: socket))
        }
        if !running { throw CLIError.quietFailure }
    }

    /// The report in words: one line for the bridge, one per selection while it bridges.
    static func describe(_ status: BridgeStatus?, running: Bool, socket: String) -> String {
        guard let status else {
            return "no desktop bridge: no status beside \(socket) (pasteboardd writes one when it starts; is it running?)"
        }
        guard running else {
            if status.state == .off { return "no desktop bridge: \(status.reason ?? "off")" }
            return "no desktop bridge: it is not running (pid \(status.pid) last said: \(status.state.rawValue)\(status.reason.map { ", \($0)" } ?? ""))"
        }
        switch status.state {
        case .off:
            return "the desktop bridge is stopping: \(status.reason ?? "off")"
        case .waiting:
            return "the desktop bridge (pid \(status.pid)) is waiting: \(status.reason ?? "for a display")"
        case .bridging:
            var lines = ["the desktop bridge (pid \(status.pid)) serves \(status.display ?? "a display") through \(status.displayProtocol ?? "?")"]
            for selection in status.selections {
                let owner = switch selection.owner {
                case "pasteboard": "owned by the pasteboard" + (selection.changeCount.map { " (change \($0))" } ?? "")
                case "desktop": "owned by a desktop application" + (selection.changeCount.map { " (imported as change \($0))" } ?? "")
                default: "owned by no one"
                }
                lines.append("\(selection.selection) ⇄ \(selection.pasteboard): \(owner)")
            }
            return lines.joined(separator: "\n")
        }
    }
}

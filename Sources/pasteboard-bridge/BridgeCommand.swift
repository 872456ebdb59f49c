import ArgumentParser
import CPasteboardSystem
import Pasteboard
import PasteboardDesktop
import PasteboardDesktopTypes
import PasteboardSystem
import PasteboardTypes

#if canImport(Glibc)
import Glibc
#endif

/// `pasteboard-bridge`: the desktop bridge as a process of its own, started by pasteboardd (or
/// by the graphical session's user unit), so the daemon itself links no display code and a
/// display server's trouble never touches it.
@main
struct BridgeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pasteboard-bridge",
        abstract: "The desktop bridge: makes the general pasteboard the X11/Wayland clipboard and primary the primary selection, both ways.",
        discussion: """
            Connects to the display the environment names (WAYLAND_DISPLAY through the compositor's \
            data-control protocol first, else DISPLAY with XAUTHORITY or ~/.Xauthority) and to the daemon \
            at --socket, and mirrors the clipboard on the general pasteboard and the primary selection on \
            primary, until SIGTERM or SIGINT. A display server or daemon that goes away is waited for and \
            connected to again. Only one bridge serves a daemon: another waits for it. pasteboardd starts \
            it by itself when its environment names a display, and again whenever it ends; `pb bridge` \
            shows what it does. Exits 78 at once when no display it may use is named.
            """,
        version: PasteboardRelease.version
    )

    @Option(name: .long, help: ArgumentHelp("The daemon's socket (default: as pb finds it).", valueName: "path"))
    var socket: String?

    @Flag(name: .long, help: "Bridge a forwarded (TCP) X display too, such as ssh -X's localhost:10.0, which dies with its session.")
    var allowRemoteDisplay = false

    @Flag(name: .long, help: "Leave the primary selection alone: mirror the clipboard only.")
    var noPrimary = false

    @Option(name: .long, help: ArgumentHelp("Exit when the process with this pid exits.", valueName: "pid"))
    var parent: Int32?

    @Option(name: .long, help: ArgumentHelp("Exit when this descriptor, the read end of a pipe, reaches its end: when whoever holds the write end exits (pasteboardd passes 3).", valueName: "fd"))
    var lifeline: Int32?

    func validate() throws {
        if let parent, parent <= 1 { throw ValidationError("--parent must be the pid of a running process above 1, not \(parent)") }
        if let lifeline {
            guard (0...65_535).contains(lifeline) else { throw ValidationError("--lifeline must be an open pipe's descriptor, not \(lifeline)") }
            guard ParentLifeline.isPipe(lifeline) else { throw ValidationError("--lifeline \(lifeline) is not the read end of a pipe") }
        }
    }

    func run() async throws {
        if let parent, pasteboard_exit_with_parent(parent) != 0 {
            throw ValidationError("the parent process \(parent) is gone")
        }
        if let lifeline {
            ParentLifeline.exitAtEnd(of: lifeline) { Self.log("the process that started the bridge is gone; exiting") }
        }
        let environment = ProcessEnvironment.current()
        let socketPath = socket ?? SocketLocation.socketPath(environment: environment)
        let files = BridgeStatusFile(socketPath: socketPath)
        let lock: Int32
        do {
            lock = try files.lock { Self.log("another bridge serves \(socketPath); waiting for it to end") }
        } catch {
            Self.log(error.description)
            throw ExitCode.failure
        }
        defer { close(lock) }
        let status = BridgeStatusRecorder(file: files) { Self.log("cannot write the bridge status: \($0)") }
        var configuration = DesktopBridge.Configuration(environment: environment)
        configuration.allowRemoteDisplay = allowRemoteDisplay
        configuration.bridgesPrimary = !noPrimary
        let (registry, _) = TypeRegistry.loading(environment: environment)
        let bridge = DesktopBridge(configuration: configuration, mapping: DesktopTypeMapping(registry: registry))
        do {
            try await Signals.cancellingOnInterrupt {
                await bridge.run(socketPath: socketPath, status: status, log: Self.log)
            }
        } catch {}
        if status.current.state != .off {
            status.update { $0 = BridgeStatus(pid: $0.pid, state: .off, reason: "stopped") }
        } else {
            // Off by itself: no display it may use is named (the status says which).
            throw ExitCode(BridgeExit.noUsableDisplay)
        }
    }

    /// One line on stderr (the daemon's log when it started the bridge).
    @Sendable static func log(_ line: String) {
        var text = "pasteboard-bridge: " + line + "\n"
        text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    }
}

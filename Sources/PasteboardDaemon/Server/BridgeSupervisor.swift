#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CPasteboardSystem
package import Logging
import PasteboardSystem
import ServiceLifecycle

/// Starts the desktop bridge (`pasteboard-bridge`) as a child process when the daemon's
/// environment names a display, and starts it again whenever it ends while the daemon runs.
///
/// A child rather than code in the daemon: the daemon links no display code, a display
/// server's trouble never stalls it, and the bridge's memory is its own (`ps` shows it). The
/// child never outlives the daemon: it gets the read end of a pipe (its *lifeline*) whose write
/// end only the daemon holds, and exits at its end-of-file, which the kernel delivers however
/// the daemon ends (even SIGKILL); it is sent SIGTERM at graceful shutdown. A bridge that ends
/// for any reason (a crash, a SIGTERM of its own, a display server's malformed event) is started
/// again after 1 s, doubling to 60 s, short again once a run lasted a minute; only the
/// daemon's own shutdown stops it, and the status `BridgeExit.noUsableDisplay`, which says the
/// daemon's environment (which does not change) names no display the bridge may use. Without a
/// display, or with `no-bridge`, it writes the bridge status `off` with the reason, for
/// `pb bridge`.
package struct BridgeSupervisor: Service, CustomStringConvertible {
    let configuration: DaemonConfiguration
    let environment: [String: String]
    let logger: Logger
    /// Told of each bridge started and ended, so the first reads wait for its first import.
    let startup: BridgeStartupGate

    package init(configuration: DaemonConfiguration, environment: [String: String], logger: Logger, startup: BridgeStartupGate = BridgeStartupGate()) {
        self.configuration = configuration
        self.environment = environment
        self.logger = logger
        self.startup = startup
    }

    package var description: String { "BridgeSupervisor" }

    /// The environment variables naming a display; one of them set (non-empty) starts the bridge.
    package static let displayVariables = ["WAYLAND_DISPLAY", "DISPLAY"]

    /// Whether `run` will start a bridge: the bridge is on, a display is named, and
    /// pasteboard-bridge is found. The daemon then holds the first reads of the bridged
    /// pasteboards back from before it listens (`BridgeStartupGate`).
    package var willStartBridge: Bool {
        configuration.bridge && Self.displayVariables.contains(where: { !(environment[$0] ?? "").isEmpty })
            && Self.bridgeExecutable(environment: environment) != nil
    }

    package func run() async throws {
        let files = BridgeStatusFile(socketPath: configuration.socketPath)
        guard configuration.bridge else {
            writeOff(files, reason: "turned off (no-bridge)")
            return
        }
        guard Self.displayVariables.contains(where: { !(environment[$0] ?? "").isEmpty }) else {
            writeOff(files, reason: "no display: neither DISPLAY nor WAYLAND_DISPLAY is set in the daemon's environment (see pasteboardd(8), DESKTOP BRIDGE)")
            return
        }
        guard let executable = Self.bridgeExecutable(environment: environment) else {
            logger.warning("no desktop bridge: pasteboard-bridge was found neither next to pasteboardd nor on PATH")
            writeOff(files, reason: "pasteboard-bridge was found neither next to pasteboardd nor on PATH")
            return
        }
        var arguments = [executable, "--socket", configuration.socketPath, "--lifeline", "\(BridgeLifeline.childDescriptor)"]
        if configuration.bridgeRemoteDisplay { arguments.append("--allow-remote-display") }
        await SupervisedChild.keepRunning(
            executable, arguments, environment: environment, logger: logger, what: "the desktop bridge",
            started: { child in startup.expect(pid: child, socketPath: configuration.socketPath) },
            ended: { child, status in
                startup.bridgeEnded()
                guard SupervisedChild.exitStatus(status) != BridgeExit.noUsableDisplay else {
                    logger.info("the desktop bridge found no display it may use; not starting it again", metadata: ["pid": "\(child)"])
                    return false
                }
                return true
            })
    }

    private func writeOff(_ files: BridgeStatusFile, reason: String) {
        do throws(BridgeStatusFile.Failure) {
            try files.write(BridgeStatus(pid: getpid(), state: .off, reason: reason))
        } catch {
            logger.warning("cannot write the bridge status", metadata: ["reason": "\(error.description)"])
        }
    }

    /// `pasteboard-bridge` next to the running executable, else the first one on PATH.
    static func bridgeExecutable(environment: [String: String]) -> String? {
        CompanionExecutable.locate("pasteboard-bridge", path: environment["PATH"])
    }
}

import Foundation
import Glibc
import Logging
import PasteboardDaemon
import PasteboardTypes
import ServiceLifecycle
import Synchronization
import TestSupport
import XCTest

/// The daemon's server running inside the test process, on the sandbox's socket, configured as
/// `pasteboardd` configures it (the same defaults, configuration file and options): for the tests
/// where a separate process is not the point (the library's behaviour, pb against a daemon, the
/// protocol), so they pay for no process start and no poll for its socket. Tests of the daemon as a
/// process (signals, kill -9, its exit status, its memory, its environment, a file-size limit)
/// use `DaemonProcess`.
///
/// Its log is kept in memory (`log`, `waitForLog`), in the same words pasteboardd writes them.
final class InProcessDaemon: Sendable {
    /// The running server's group and task, until `stop` lets go of them (and so of the server,
    /// whose locks are held for as long as it lives).
    private let running: Mutex<(group: ServiceGroup, task: Task<Void, any Error>)?>
    private let recorder: LogRecorder
    private let lockPath: String

    /// Starts a server with `arguments` (pasteboardd's long options that are configuration keys,
    /// `--memory-only` and the like), `spoolSystem` replacing the spool's system calls (a disk
    /// with a given free space) and `clock` the wall clock of expiries and the history (a
    /// `ManualWallClock`'s), and waits until it accepts connections.
    static func started(in sandbox: Sandbox, arguments: [String] = [], spoolSystem: SpoolSystem = .live, clock: WallClock = .system) throws -> InProcessDaemon {
        let daemon = try InProcessDaemon(sandbox: sandbox, arguments: arguments, spoolSystem: spoolSystem, clock: clock)
        guard eventually(timeout: 10, { (try? RawClient(socketPath: sandbox.socketPath)).map { $0.close() } != nil }) else {
            daemon.stop()
            XCTFail("the in-process server did not listen: \(daemon.log)")
            throw XCTSkip("the in-process server did not listen")
        }
        return daemon
    }

    private init(sandbox: Sandbox, arguments: [String], spoolSystem: SpoolSystem, clock: WallClock) throws {
        let environment = sandbox.environment()
        var defaults = DaemonConfiguration(socketPath: sandbox.socketPath)
        defaults.stateDirectory = DurableStorage.defaultDirectory(environment: environment)
        let sources = ConfigurationSources(
            defaults: defaults, file: ConfigurationFile.located(explicitPath: nil, environment: environment),
            commandLine: try Self.settings(arguments), environment: environment)
        let configuration = try sources.load()
        let recorder = LogRecorder()
        let levels = LogLevelControl(configuration.logLevel)
        let logger = Logger(label: "pasteboardd") { label in recorder.handler(label: label, levels: levels) }
        let (registry, _) = TypeRegistry.loading(environment: environment)
        let server = try PasteboardServer(configuration: configuration, registry: registry, logger: logger, logLevel: levels, spoolSystem: spoolSystem, clock: clock)
        let group = ServiceGroup(configuration: .init(services: [.init(service: server)], gracefulShutdownSignals: [], logger: logger))
        self.recorder = recorder
        lockPath = sandbox.socketPath + ".lock"
        running = Mutex((group, Task { try await group.run() }))
    }

    /// pasteboardd's options as settings: `--key value`, or `--flag` for the yes-or-no keys
    /// (`--memory-only` as pasteboardd takes it: no state directory).
    private static func settings(_ arguments: [String]) throws -> [ConfigurationSetting] {
        var settings: [ConfigurationSetting] = []
        var rest = arguments[...]
        while let option = rest.popFirst() {
            guard option.hasPrefix("--") else { throw UnknownOption(option: option) }
            let name = String(option.dropFirst(2))
            let flags: [String: String] = ["memory-only": "memory-only", "no-handoff": "no-handoff", "no-bridge": "no-bridge",
                                           "bridge-remote-display": "bridge-remote-display", "durable-primary": "durable-primary"]
            if let flag = flags[name], let key = ConfigurationKey.named(flag) {
                settings.append(ConfigurationSetting(key, "yes", origin: .commandLine))
            } else if let key = ConfigurationKey.named(name), let value = rest.popFirst() {
                settings.append(ConfigurationSetting(key, value, origin: .commandLine))
            } else {
                throw UnknownOption(option: option)
            }
        }
        return settings
    }

    /// Everything logged so far, a line an event.
    var log: String { recorder.text }

    /// Waits (up to 10 seconds) until `count` lines of the log contain `text`; false if they never do.
    func waitForLog(_ text: String, count: Int = 1) -> Bool {
        eventually { self.recorder.lines.filter { $0.contains(text) }.count >= count }
    }

    /// Shuts the server down gracefully (as SIGTERM does pasteboardd), waits until it has stopped
    /// and has let go of the socket's lock (as a process does by exiting), so another can start.
    func stop() {
        guard let (group, task) = running.withLock({ $0.take() }) else { return }
        let stopped = DispatchSemaphore(value: 0)
        Task {
            await group.triggerGracefulShutdown()
            _ = try? await task.value
            stopped.signal()
        }
        if stopped.wait(timeout: .now() + 30) == .timedOut { XCTFail("the in-process server did not stop within 30 s") }
        let lockPath = lockPath
        XCTAssertTrue(eventually { Self.isFree(lockPath) }, "the stopped in-process server still holds \(lockPath)")
    }

    /// Whether nobody holds the lock file at `path` (a daemon's single-instance lock).
    private static func isFree(_ path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return true }
        defer { close(fd) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else { return false }
        flock(fd, LOCK_UN)
        return true
    }
}

/// An option the in-process server does not take (not a configuration key of pasteboardd's).
struct UnknownOption: Error {
    let option: String
}

/// The in-process server's log lines, as pasteboardd's stderr shows them (level, message,
/// metadata), in memory.
final class LogRecorder: Sendable {
    private let recorded = Mutex<[String]>([])

    var lines: [String] { recorded.withLock { $0 } }
    var text: String { lines.map { $0 + "\n" }.joined() }

    func append(_ line: String) { recorded.withLock { $0.append(line) } }

    func handler(label: String, levels: LogLevelControl) -> any LogHandler {
        RecordingLogHandler(recorder: self, levels: levels)
    }
}

private struct RecordingLogHandler: LogHandler {
    let recorder: LogRecorder
    let levels: LogLevelControl
    var metadata: Logger.Metadata = [:]

    var logLevel: Logger.Level {
        get { levels.level }
        set {}
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let all = metadata.merging(event.metadata ?? [:]) { $1 }
        let fields = all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        recorder.append("\(event.level) pasteboardd: \(event.message)" + (fields.isEmpty ? "" : " [\(fields)]"))
    }
}

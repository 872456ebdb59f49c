public import Foundation
import Glibc
import Synchronization
import XCTest

/// A headless sway of the test's own, with its own runtime directory and socket, so the tests
/// never touch the developer's desktop (`WAYLAND_DISPLAY` of the test process is never read).
///
/// sway refuses to run as root: as root the test runs it as `nobody` (setpriv), with a runtime
/// directory and home that user owns and a config copied into a directory it can read (the
/// checkout may be mode 0700 on CI). Root clients (wl-copy, our reader) then reach the socket by
/// its absolute path.
///
/// Shared by the test targets that need a compositor (PasteboardWaylandTests, and the bridge's
/// tests in PasteboardIntegrationTests, which also need a real pasteboardd).
///
/// Sendable, so a test can run a wl-paste pipeline in a task beside another: after set-up only
/// the run counter (atomic) and the children's list (behind a lock) change.
public final class HeadlessSway: Sendable {
    public let directory: String
    public let socketPath: String
    private let pid: Mutex<pid_t>
    private let command: [String]
    private let environment: [String: String]
    private let children = Mutex<[pid_t]>([])
    private let runs = Atomic<Int>(0)

    public init() throws {
        for tool in ["/usr/bin/sway", "/usr/bin/wl-copy", "/usr/bin/setpriv"] where !FileManager.default.isExecutableFile(atPath: tool) {
            throw XCTSkip("\(tool) is not installed (.ci/run installs sway and wl-clipboard)")
        }
        var template = Array("/tmp/pb-sway-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw POSIXError(.EIO) }
        directory = String(cString: made)
        chmod(directory, 0o755)
        let runtime = directory + "/run", home = directory + "/home", config = directory + "/config"
        mkdir(runtime, 0o700)
        mkdir(home, 0o755)
        try "xwayland disable\n".write(toFile: config, atomically: false, encoding: .utf8)
        chmod(config, 0o644)
        var command = ["/usr/bin/sway", "-c", config]
        if getuid() == 0 {
            guard let nobody = getpwnam("nobody") else { throw XCTSkip("no user nobody to run sway as") }
            let (uid, gid) = (nobody.pointee.pw_uid, nobody.pointee.pw_gid)
            chown(runtime, uid, gid)
            chown(home, uid, gid)
            command = ["/usr/bin/setpriv", "--reuid=\(uid)", "--regid=\(gid)", "--clear-groups"] + command
        }
        let environment = [
            "PATH": "/usr/bin:/bin", "HOME": home, "XDG_RUNTIME_DIR": runtime,
            "WLR_BACKENDS": "headless", "WLR_RENDERER": "pixman", "WLR_LIBINPUT_NO_DEVICES": "1",
        ]
        self.command = command
        self.environment = environment
        let started = try Self.spawn(command, environment: environment, log: directory + "/sway.log")
        pid = Mutex(started)
        socketPath = try Self.socket(in: runtime, of: started, directory: directory)
    }

    /// The runtime directory sway was given (`XDG_RUNTIME_DIR`): `WAYLAND_DISPLAY` relative to it
    /// is `socketName`.
    public var runtimeDirectory: String { directory + "/run" }

    /// The socket's name in `runtimeDirectory`, as a session's `WAYLAND_DISPLAY` names it.
    public var socketName: String { (socketPath as NSString).lastPathComponent }

    /// The socket sway opened in `runtime`, waited for; throws (sway stopped) when none came.
    private static func socket(in runtime: String, of pid: pid_t, directory: String) throws -> String {
        var found: String?
        let deadline = Date().addingTimeInterval(15)
        while found == nil, Date() < deadline {
            found = (try? FileManager.default.contentsOfDirectory(atPath: runtime))?
                .first { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") }
                .map { runtime + "/" + $0 }
            // The file exists once sway bound it, a moment before it listens: until then a
            // client's connect is refused (seen on CI), so the wait is for a connect that works.
            if let path = found, !accepts(path) { found = nil }
            if found == nil { usleep(20_000) }
        }
        guard let found else {
            let log = (try? String(contentsOfFile: directory + "/sway.log", encoding: .utf8)) ?? ""
            Self.stop(pid)
            throw StartFailure(log: String(log.suffix(2000)))
        }
        return found
    }

    /// Whether a client can connect to the Unix socket at `path` now.
    private static func accepts(_ path: String) -> Bool {
        let fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0 }
        }
    }

    /// Kills sway (SIGKILL: the compositor dies as in a crash), leaving its runtime directory.
    /// Every client's connection ends.
    public func kill() {
        stopCompositor()
    }

    /// Sends `number` to sway (SIGSTOP: a compositor that stops answering without closing any
    /// connection; SIGCONT resumes it).
    public func signal(_ number: Int32) {
        let running = pid.withLock { $0 }
        if running > 0 { Glibc.kill(running, number) }
    }

    /// Stops sway if it runs (its pid forgotten, so it is never signalled again once reaped).
    private func stopCompositor() {
        let running = pid.withLock { pid in
            defer { pid = 0 }
            return pid
        }
        if running > 0 { Self.stop(running) }
    }

    /// Starts sway again after `kill()` on the same socket name (the socket and its lock file
    /// are removed first, so it takes the first name again and the wait is for the new socket).
    public func start() throws {
        for name in [socketName, socketName + ".lock"] { unlink(runtimeDirectory + "/" + name) }
        let started = try Self.spawn(command, environment: environment, log: directory + "/sway.log")
        pid.withLock { $0 = started }
        let found = try Self.socket(in: runtimeDirectory, of: started, directory: directory)
        guard found == socketPath else {
            throw StartFailure(log: "sway came back on \(found), not \(socketPath)")
        }
    }

    /// A window sway shows: its title, app id, and where its surface is on the output (the
    /// container's rectangle moved by the surface's place inside it).
    public struct Window: Sendable {
        public let title: String
        public let appID: String?
        public let x: Int, y: Int, width: Int, height: Int

        /// The middle of the surface.
        public var middle: (x: Int, y: Int) { (x + width / 2, y + height / 2) }
    }

    /// The windows sway shows now, read with `swaymsg -t get_tree` over its IPC socket.
    public func windows() throws -> [Window] {
        let tree = try JSONSerialization.jsonObject(with: ipc(["-r", "-t", "get_tree"]).output) as? [String: Any] ?? [:]
        var found: [Window] = []
        func walk(_ node: [String: Any]) {
            if node["pid"] != nil, let rect = node["rect"] as? [String: Int], let surface = node["window_rect"] as? [String: Int] {
                found.append(Window(
                    title: node["name"] as? String ?? "", appID: node["app_id"] as? String,
                    x: (rect["x"] ?? 0) + (surface["x"] ?? 0), y: (rect["y"] ?? 0) + (surface["y"] ?? 0),
                    width: surface["width"] ?? 0, height: surface["height"] ?? 0))
            }
            for child in (node["nodes"] as? [[String: Any]] ?? []) + (node["floating_nodes"] as? [[String: Any]] ?? []) { walk(child) }
        }
        walk(tree)
        return found
    }

    /// Runs a sway command (`swaymsg COMMAND`), such as `[app_id="x"] kill`; true when sway took it.
    @discardableResult
    public func command(_ command: String) throws -> Bool {
        try ipc([command]).status == 0
    }

    /// The first output's size (sway's headless output), which absolute pointer positions are in.
    public func outputSize() throws -> (width: Int, height: Int) {
        let outputs = try JSONSerialization.jsonObject(with: ipc(["-r", "-t", "get_outputs"]).output) as? [[String: Any]] ?? []
        let rect = outputs.first?["rect"] as? [String: Int] ?? [:]
        return (rect["width"] ?? 0, rect["height"] ?? 0)
    }

    /// Runs swaymsg with `arguments` on sway's IPC socket (root reaches nobody's socket).
    private func ipc(_ arguments: [String]) throws -> (status: Int32, output: Data) {
        guard let socket = (try? FileManager.default.contentsOfDirectory(atPath: runtimeDirectory))?.first(where: { $0.hasPrefix("sway-ipc.") }) else {
            throw StartFailure(log: "sway has no IPC socket in \(runtimeDirectory)")
        }
        let output = directory + "/swaymsg-\(runs.add(1, ordering: .relaxed).newValue).out"
        defer { try? FileManager.default.removeItem(atPath: output) }
        let child = try Self.spawn(["/usr/bin/swaymsg", "-s", runtimeDirectory + "/" + socket] + arguments, environment: ["PATH": "/usr/bin:/bin"], log: output, errorLog: directory + "/swaymsg.err")
        var status: Int32 = 0
        waitpid(child, &status, 0)
        return ((status >> 8) & 0xff, try Data(contentsOf: URL(fileURLWithPath: output)))
    }

    /// sway is installed but did not open its socket: a failure, not a skip.
    public struct StartFailure: Error, CustomStringConvertible {
        public let log: String
        public var description: String { "sway did not start: \(log)" }
    }

    /// Starts `wl-copy --foreground` with `arguments`, the bytes of `input` on its stdin
    /// (stopped by `stop()`, or earlier by `kill(_:)`).
    public func copy(_ input: [UInt8], _ arguments: [String] = []) throws -> pid_t {
        let number = runs.add(1, ordering: .relaxed).newValue
        let inputPath = directory + "/input-\(number)"
        try Data(input).write(to: URL(fileURLWithPath: inputPath))
        let child = try Self.spawn(["/usr/bin/wl-copy", "--foreground"] + arguments, environment: [
            "PATH": "/usr/bin:/bin", "HOME": directory, "WAYLAND_DISPLAY": socketPath,
        ], log: directory + "/wl-copy-\(number).log", stdin: inputPath)
        children.withLock { $0.append(child) }
        return child
    }

    /// Kills a child `copy(_:_:)` started (SIGKILL: the copying program dies without a word).
    public func kill(_ child: pid_t) {
        let known = children.withLock { children in
            guard let index = children.firstIndex(of: child) else { return false }
            children.remove(at: index)
            return true
        }
        if known { Self.stop(child) }
    }

    /// Runs `wl-paste` with `arguments` (add `-n`: it appends a newline to text otherwise) and
    /// returns its exit status and standard output, waiting at most `seconds`.
    public func paste(_ arguments: [String], seconds: Double = 30) async throws -> (status: Int32, output: [UInt8]) {
        try await run(["/usr/bin/wl-paste"] + arguments, seconds: seconds)
    }

    /// `paste(_:seconds:)` for a synchronous test: blocks the calling thread (a test's main
    /// thread, never a concurrency thread the bridge's tasks need) while wl-paste runs.
    public func pasteWaiting(_ arguments: [String], seconds: Double = 60) throws -> (status: Int32, output: [UInt8]) {
        let command = ["/usr/bin/wl-paste"] + arguments
        let (child, output) = try start(command)
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            if let status = Self.reaped(child) { return try collect(output, status: status) }
            try Self.checkDeadline(deadline, child, command)
            usleep(5_000)
        }
    }

    /// Runs `command` with `sh -c` (pipelines such as `wl-paste | head -c 10`), WAYLAND_DISPLAY
    /// set to this sway; returns its status and standard output.
    public func shell(_ command: String, seconds: Double = 30) async throws -> (status: Int32, output: [UInt8]) {
        try await run(["/bin/sh", "-c", command], seconds: seconds)
    }

    private func run(_ command: [String], seconds: Double) async throws -> (status: Int32, output: [UInt8]) {
        let (child, output) = try start(command)
        let deadline = Date().addingTimeInterval(seconds)
        // Polled, not a blocking waitpid: the test's task must not hold a concurrency thread
        // the source's providers need.
        while true {
            if let status = Self.reaped(child) { return try collect(output, status: status) }
            try Self.checkDeadline(deadline, child, command)
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Spawns `command` against this sway; its standard output goes to the returned file.
    private func start(_ command: [String]) throws -> (pid_t, String) {
        let run = runs.add(1, ordering: .relaxed).newValue
        let output = directory + "/run-\(run).out"
        let child = try Self.spawn(command, environment: [
            "PATH": "/usr/bin:/bin", "HOME": directory, "WAYLAND_DISPLAY": socketPath,
        ], log: output, errorLog: directory + "/run.err")
        return (child, output)
    }

    /// The exit status of `child` once it has ended (reaped), nil while it runs.
    private static func reaped(_ child: pid_t) -> Int32? {
        var status: Int32 = 0
        guard waitpid(child, &status, WNOHANG) != 0 else { return nil }
        return (status >> 8) & 0xff
    }

    /// Kills `child` and throws once `deadline` has passed.
    private static func checkDeadline(_ deadline: Date, _ child: pid_t, _ command: [String]) throws {
        guard Date() > deadline else { return }
        stop(child)
        throw RunTimedOut(command: command.joined(separator: " "))
    }

    /// The output file's bytes (the file removed) with `status`.
    private func collect(_ output: String, status: Int32) throws -> (status: Int32, output: [UInt8]) {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: output))
        try? FileManager.default.removeItem(atPath: output)
        return (status, Array(bytes))
    }

    public struct RunTimedOut: Error, CustomStringConvertible {
        public let command: String
        public var description: String { "\(command) did not end in time" }
    }

    /// Stops sway and every wl-copy, and removes the directory.
    public func stop() {
        for child in children.withLock({ $0 }) { Self.stop(child) }
        stopCompositor()
        try? FileManager.default.removeItem(atPath: directory)
    }

    private static func stop(_ pid: pid_t) {
        Glibc.kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }

    private static func spawn(_ command: [String], environment: [String: String], log: String, stdin: String = "/dev/null", errorLog: String? = nil) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdin, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        if let errorLog {
            posix_spawn_file_actions_addopen(&actions, 2, errorLog, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        } else {
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        }
        var argv = command.map { strdup($0) }
        argv.append(nil)
        var envp = environment.map { strdup("\($0.key)=\($0.value)") }
        envp.append(nil)
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, command[0], &actions, nil, argv, envp)
        guard status == 0 else { throw POSIXError(POSIXErrorCode(rawValue: status) ?? .EIO) }
        return pid
    }
}

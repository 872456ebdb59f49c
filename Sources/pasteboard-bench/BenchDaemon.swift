#if canImport(Glibc)
import Glibc
#endif
import Pasteboard
import PasteboardProtocol

/// The pasteboardd a run measures: the one built next to this program, started on a socket in
/// a fresh temporary directory (its state there too), so no other client shares it.
struct BenchDaemon {
    /// The temporary directory holding the socket, the log and the state.
    let directory: String
    /// The socket path.
    let socketPath: String
    /// The daemon's pid, from its `welcome`.
    let pid: Int32

    /// Starts the daemon with `arguments` added to its socket and state directory, and waits
    /// until it answers. `PASTEBOARD_SOCKET` then names it, for the tools the bench runs.
    ///
    /// The daemon gets a display only when `display` names one (`DISPLAY` or `WAYLAND_DISPLAY`,
    /// the bench's own Xvfb or sway): then it starts its desktop bridge, as users get it. Any
    /// display in the bench's own environment is removed from the daemon's, so a run on a
    /// desktop never takes over that desktop's clipboard.
    static func start(_ arguments: [String] = [], display: [String: String] = [:]) async throws -> BenchDaemon {
        var template = Array("/tmp/pasteboard-bench-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw BenchError("cannot make a temporary directory") }
        let directory = String(cString: made)
        let socketPath = directory + "/pasteboardd.sock"
        setenv("XDG_STATE_HOME", directory + "/state", 1)
        setenv("PASTEBOARD_SOCKET", socketPath, 1)
        setenv("PASTEBOARD_NO_AUTOSTART", "1", 1)
        var command = [Spawned.ownDirectory + "/pasteboardd", "--socket", socketPath]
        if !arguments.contains("--memory-only") { command += ["--state-directory", directory + "/state"] }
        let environment = ChildEnvironment(setting: display, removing: ["DISPLAY", "WAYLAND_DISPLAY"])
        _ = try Spawned.start(command + arguments, output: directory + "/pasteboardd.log", environment: environment)
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(10)
        while true {
            do {
                let pid = try await PasteboardConnection.withConnection(socketPath: socketPath, clientName: "pasteboard-bench") { $0.welcome.pid }
                return BenchDaemon(directory: directory, socketPath: socketPath, pid: pid)
            } catch where clock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
        }
    }

    /// The daemon's memory figures.
    var memory: ProcessMemory { ProcessMemory(pid: pid) }

    /// The daemon's resident set size in bytes (VmRSS), or 0 when it cannot be read.
    var residentBytes: Int { memory.residentBytes }

    /// The daemon's peak resident set size in bytes (VmHWM) since `resetPeak`, or 0.
    var peakResidentBytes: Int { memory.peakResidentBytes }

    /// Starts the peak resident size (VmHWM) afresh from the current size (Linux's clear_refs);
    /// false when the kernel refused.
    @discardableResult
    func resetPeak() -> Bool { memory.resetPeak() }

    /// Stops the daemon (SIGTERM, reaped) and removes the temporary directory.
    func stop() {
        Spawned(pid: pid).stop()
        _ = system("rm -rf '\(directory)'")
    }

    /// Raises this process's open-file limit to its hard limit (a run holds many connections).
    static func raiseOpenFileLimit() {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
    }
}

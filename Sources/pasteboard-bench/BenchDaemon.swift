#if canImport(Glibc)
import Glibc
#endif
import Pasteboard

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
    static func start(_ arguments: [String] = []) async throws -> BenchDaemon {
        var template = Array("/tmp/pasteboard-bench-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw BenchError("cannot make a temporary directory") }
        let directory = String(cString: made)
        let socketPath = directory + "/pasteboardd.sock"
        setenv("XDG_STATE_HOME", directory + "/state", 1)
        setenv("PASTEBOARD_SOCKET", socketPath, 1)
        setenv("PASTEBOARD_NO_AUTOSTART", "1", 1)
        var command = [Spawned.ownDirectory + "/pasteboardd", "--socket", socketPath]
        if !arguments.contains("--memory-only") { command += ["--state-directory", directory + "/state"] }
        _ = try Spawned.start(command + arguments, output: directory + "/pasteboardd.log")
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

    /// The daemon's resident set size in bytes (VmRSS), or 0 when it cannot be read.
    var residentBytes: Int { statusField("VmRSS:") }

    /// A size field of /proc/PID/status, in bytes.
    private func statusField(_ name: String) -> Int {
        guard let file = fopen("/proc/\(pid)/status", "r") else { return 0 }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if text.hasPrefix(name) {
                return (Int(text.dropFirst(name.count).filter(\.isNumber)) ?? 0) * 1024
            }
        }
        return 0
    }

    /// The daemon's peak resident set size in bytes (VmHWM) since `resetPeak`, or 0.
    var peakResidentBytes: Int { statusField("VmHWM:") }

    /// Starts the peak resident size (VmHWM) afresh from the current size (Linux's clear_refs).
    func resetPeak() {
        guard let file = fopen("/proc/\(pid)/clear_refs", "w") else { return }
        fputs("5", file)
        fclose(file)
    }

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

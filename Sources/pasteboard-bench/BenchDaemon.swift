#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import Pasteboard

/// The pasteboardd a run measures: started by the first connection (the library's auto-start)
/// on a socket in a fresh temporary directory, so no other client shares it.
struct BenchDaemon {
    /// The temporary directory holding the socket, the log and the state.
    let directory: String
    /// The socket path.
    let socketPath: String
    /// The daemon's pid, from its `welcome`.
    let pid: Int32

    /// Starts the daemon (the library starts it on the first connect).
    static func start() async throws -> BenchDaemon {
        var template = Array("/tmp/pasteboard-bench-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw ValidationError("cannot make a temporary directory") }
        let directory = String(cString: made)
        let socketPath = directory + "/pasteboardd.sock"
        setenv("XDG_STATE_HOME", directory + "/state", 1)
        setenv("PASTEBOARD_SOCKET", socketPath, 1)
        unsetenv("PASTEBOARD_NO_AUTOSTART")
        let pid = try await PasteboardConnection.withConnection(socketPath: socketPath, clientName: "pasteboard-bench") { $0.welcome.pid }
        return BenchDaemon(directory: directory, socketPath: socketPath, pid: pid)
    }

    /// The daemon's resident set size in bytes (VmRSS), or 0 when it cannot be read.
    var residentBytes: Int {
        guard let file = fopen("/proc/\(pid)/status", "r") else { return 0 }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if text.hasPrefix("VmRSS:") {
                return (Int(text.dropFirst(6).filter(\.isNumber)) ?? 0) * 1024
            }
        }
        return 0
    }

    /// Stops the daemon (SIGTERM) and removes the temporary directory.
    func stop() {
        kill(pid, SIGTERM)
        for _ in 0..<500 where kill(pid, 0) == 0 { usleep(10_000) }
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

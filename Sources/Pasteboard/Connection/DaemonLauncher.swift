#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CPasteboardSystem
internal import NIOCore
internal import NIOPosix
internal import PasteboardProtocol

/// Starts `pasteboardd` when nothing listens on the socket, so `echo hi | pb copy` works on a
/// fresh machine.
enum DaemonLauncher {
    /// How long a client waits for a daemon it started to listen.
    static let startTimeout: Duration = .seconds(5)

    /// True when `$PASTEBOARD_NO_AUTOSTART` is set to anything but "" or "0".
    static var autoStartDisabled: Bool {
        guard let value = getenv("PASTEBOARD_NO_AUTOSTART") else { return false }
        let string = String(cString: value)
        return !string.isEmpty && string != "0"
    }

    /// True when `error` from a connect means no daemon is there (no socket file, or nobody accepting).
    static func isNobodyListening(_ error: any Error) -> Bool {
        if let error = error as? IOError { return [ENOENT, ECONNREFUSED].contains(error.errnoCode) }
        if let error = error as? NIOConnectionError {
            return error.connectionErrors.contains { ($0.error as? IOError).map { [ENOENT, ECONNREFUSED].contains($0.errnoCode) } ?? false }
        }
        return false
    }

    /// One line describing a connect failure.
    static func describe(_ error: any Error) -> String {
        if let error = error as? IOError { return SystemError.describe(error.errnoCode) }
        if let error = error as? NIOConnectionError,
           let first = error.connectionErrors.first?.error as? IOError {
            return SystemError.describe(first.errnoCode)
        }
        return ErrorMessage.text(for: error)
    }

    /// `pasteboardd` next to the running executable, else the first one on PATH.
    static func daemonExecutable() -> String? {
        CompanionExecutable.locate("pasteboardd", path: getenv("PATH").map { String(cString: $0) })
    }

    /// Spawns a detached daemon for `socketPath`, logging to `<socketPath>.log`.
    static func start(socketPath: String) async throws {
        guard let executable = daemonExecutable() else {
            throw PasteboardError.daemonUnreachable(
                socketPath: socketPath,
                reason: "nothing listens and pasteboardd was found neither next to this program nor on PATH"
            )
        }
        let arguments = [executable, "--socket", socketPath, "--log-file", socketPath + ".log"]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let pid = pasteboard_spawn_detached(executable, &argv, environ, -1)
        guard pid > 0 else {
            throw PasteboardError.daemonUnreachable(
                socketPath: socketPath, reason: "cannot start \(executable): \(SystemError.current)"
            )
        }
        startedPID.withLock { $0 = pid }
    }

    /// Retries `connect` until the daemon listens or the start timeout passes.
    static func waitForDaemon<Channel: Sendable>(
        socketPath: String, connect: () async throws -> Channel
    ) async throws -> Channel {
        let clock = ContinuousClock()
        var deadline = clock.now + startTimeout
        var lastError: any Error = PasteboardError.daemonUnreachable(socketPath: socketPath, reason: "not started")
        var exitStatus: Int32?
        while clock.now < deadline {
            do {
                return try await connect()
            } catch {
                lastError = error
                if exitStatus == nil, let status = reapStartedDaemon() {
                    // It exited: either another daemon won the race (and is about to listen) or it failed.
                    exitStatus = status
                    deadline = min(deadline, clock.now + .seconds(1))
                }
                try await Task.sleep(for: .milliseconds(10))
            }
        }
        let log = socketPath + ".log"
        // A daemon that refused to start said why as the last line of its log: say it here.
        let why = exitStatus != nil ? lastLogLine(log).map { ": " + $0 } ?? "" : ""
        let reason = exitStatus.map { "started pasteboardd but it exited with status \($0)\(why)" }
            ?? "started pasteboardd but it did not listen within 5 seconds (\(describe(lastError)))"
        throw PasteboardError.daemonUnreachable(socketPath: socketPath, reason: reason + (access(log, F_OK) == 0 ? "; see \(log)" : ""))
    }

    /// The last line of the daemon's log at `path` (its last 4 KiB read, the file not followed
    /// through a link nor blocked on a FIFO), with the daemon's own prefix removed.
    static func lastLogLine(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_uid == getuid() else { return nil }
        let count = min(Int(info.st_size), 4096)
        guard count > 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: count)
        let read = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, count, off_t(info.st_size) - off_t(count)) }
        guard read > 0 else { return nil }
        let text = String(decoding: bytes[..<read], as: UTF8.self)
        guard let line = text.split(separator: "\n").last.map(String.init) else { return nil }
        // "2026-…+0000 error pasteboardd: the message [PasteboardDaemon]" or "pasteboardd: the message".
        let message = line.firstRange(of: "pasteboardd: ").map { String(line[$0.upperBound...]) } ?? line
        return message.replacing(" [PasteboardDaemon]", with: "")
    }

    /// Collects the started daemon if it already exited; returns its exit status then.
    private static func reapStartedDaemon() -> Int32? {
        guard let pid = startedPID.withLock({ $0 }) else { return nil }
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
        startedPID.withLock { $0 = nil }
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }

    private static let startedPID = Mutex<pid_t?>(nil)
}

import PasteboardSystem
import Synchronization

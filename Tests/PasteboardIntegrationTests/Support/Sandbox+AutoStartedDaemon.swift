import Foundation
import Glibc
import TestSupport

extension Sandbox {
    /// The pid of the daemon that holds the sandbox socket's lock (one `pb` started by itself),
    /// from the lock file it writes; nil when no daemon holds it.
    var autoStartedDaemon: pid_t? {
        let lock = socketPath + ".lock"
        let fd = open(lock, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        guard flock(fd, LOCK_SH | LOCK_NB) != 0 else { return nil }
        return (try? String(contentsOfFile: lock, encoding: .utf8)).flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    /// Sends SIGTERM to that daemon and waits until it has let go of the lock, which it holds
    /// until it exits (unlike its pid, which lingers while nobody reaps it). True when no
    /// daemon holds the lock any more.
    @discardableResult
    func stopAutoStartedDaemon(timeout: TimeInterval = 10) -> Bool {
        guard let pid = autoStartedDaemon else { return true }
        kill(pid, SIGTERM)
        return eventually(timeout: timeout) { self.autoStartedDaemon == nil }
    }
}

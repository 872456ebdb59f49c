#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The lock that gives a state directory to one live daemon (`<state>/daemon.lock`, naming the
/// holder's pid and socket).
///
/// Why: the single-instance lock is per socket, so two daemons on two sockets (one started
/// through `PASTEBOARD_SOCKET`, a test's, a socket-activated try) would otherwise share one
/// `$XDG_STATE_HOME/pasteboard`: each rewrites the archives, the history, the journal and
/// `data/` from its own memory, and after a restart one daemon's acknowledged copies are gone.
/// A second daemon refuses to start instead, saying whose the directory is and how to give it
/// its own (`--state-directory`, `XDG_STATE_HOME`, or `--memory-only`), before it accepts any
/// copy, so nothing either daemon acknowledged is lost.
package final class StateDirectoryLock: Sendable {
    private let file: HeldLockFile

    /// The lock file's name in the state directory.
    package static let fileName = "daemon.lock"

    /// Takes the lock of `directory` (which exists, 0700) for the daemon serving `socketPath`.
    package init(directory: String, socketPath: String) throws(DaemonError) {
        file = try HeldLockFile(path: directory + "/" + Self.fileName, holder: "\(getpid()) \(socketPath)") { holder in
            let fields = holder.split(separator: " ", maxSplits: 1)
            return .stateDirectoryInUse(
                directory: directory, pid: fields.first.flatMap { Int32($0) },
                socketPath: fields.count > 1 ? String(fields[1]) : nil)
        }
    }
}

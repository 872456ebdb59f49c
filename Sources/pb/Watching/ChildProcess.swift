#if canImport(Glibc)
import Glibc
#endif
import CPasteboardSystem
import PasteboardCLI
import PasteboardSystem
import Synchronization

/// A process `pb` started and waits for: it gets its own stdin, `pb`'s stdout and stderr, no
/// other descriptor, and the default action for the signals `pb` handles or ignores itself.
final class ChildProcess: Sendable {
    /// How a child ended.
    enum Termination: Sendable, Equatable, CustomStringConvertible {
        case exited(Int32)
        case signalled(Int32)

        var description: String {
            switch self {
            case .exited(let status): "exited with status \(status)"
            case .signalled(let number): "was killed by signal \(number)"
            }
        }
    }

    let pid: pid_t
    /// True once the child has exited: from then on its pid may be reused, so it gets no signal.
    private let exited = Mutex(false)

    private init(pid: pid_t) {
        self.pid = pid
    }

    /// Starts `command` with `environment` and `standardInput` as its stdin; throws when the
    /// program cannot be started (gone, not executable, not a program).
    static func spawn(_ command: ExternalCommand, environment: [String: String], standardInput: Int32) throws(CLIError) -> ChildProcess {
        let argv = command.arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        let pid = pasteboard_spawn_child(command.path, argv, envp, standardInput, -1)
        guard pid > 0 else { throw .failure("cannot run '\(command.name)': \(SystemError.current)") }
        return ChildProcess(pid: pid)
    }

    /// Sends `number` to the child, unless it has already exited.
    func signal(_ number: Int32) {
        exited.withLock { exited in
            if !exited { kill(pid, number) }
        }
    }

    /// Asks the child to stop (SIGTERM), and kills it (SIGKILL) if it still runs after `grace`.
    func terminate(grace: Duration = .seconds(5)) {
        signal(SIGTERM)
        Task { [self] in
            try? await Task.sleep(for: grace)
            signal(SIGKILL)
        }
    }

    /// Waits until the child exits, and reaps it (the blocking wait on a thread of its own,
    /// `BlockingWork`, not on Swift's cooperative threads).
    func waitForExit() async -> Termination {
        await BlockingWork.run { [self] in
            // Waits without reaping, so that no signal can reach another process that gets the pid.
            var info = siginfo_t()
            while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0, errno == EINTR {}
            var status: Int32 = 0
            exited.withLock { exited in
                exited = true
                while waitpid(pid, &status, 0) < 0, errno == EINTR {}
            }
            return Self.termination(status)
        }
    }

    /// Decodes a wait status (WIFEXITED/WEXITSTATUS/WTERMSIG, which Swift does not import).
    private static func termination(_ status: Int32) -> Termination {
        let signalNumber = status & 0x7F
        return signalNumber == 0 ? .exited((status >> 8) & 0xFF) : .signalled(signalNumber)
    }
}

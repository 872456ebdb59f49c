#if canImport(Glibc)
import Glibc
#endif
import PasteboardCLI
import PasteboardSystem
import Synchronization

/// One run of `pb watch --exec`'s command, for one change: the child once it is started, and
/// whether the run was stopped (a run stopped before its child started never starts it).
final class CommandRun: Sendable {
    let command: ExternalCommand
    private let state = Mutex<(child: ChildProcess?, stopped: Bool)>((nil, false))

    init(_ command: ExternalCommand) {
        self.command = command
    }

    /// The child, once started.
    var child: ChildProcess? { state.withLock { $0.child } }

    /// Starts the command with `input`'s read end as its stdin, or `/dev/null` without one.
    /// Throws `CancellationError` when the run was stopped, and when the program cannot be started.
    func start(environment: [String: String], input: ChildInput?) throws {
        try state.withLock { state in
            guard !state.stopped else { throw CancellationError() }
            if let input {
                defer { input.closeReadEnd() }
                state.child = try ChildProcess.spawn(command, environment: environment, standardInput: input.readEnd)
            } else {
                let empty = open("/dev/null", O_RDONLY | O_CLOEXEC)
                guard empty >= 0 else { throw CLIError.failure("cannot open /dev/null: \(SystemError.current)") }
                defer { close(empty) }
                state.child = try ChildProcess.spawn(command, environment: environment, standardInput: empty)
            }
        }
    }

    /// Stops the run: terminates the child if it runs, and keeps one from starting.
    func stop() {
        let child = state.withLock { state in
            state.stopped = true
            return state.child
        }
        child?.terminate()
    }
}

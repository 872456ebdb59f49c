#if canImport(Glibc)
import Glibc
#endif
import PasteboardSystem

/// A program the bench runs: our own tools, a baseline's, or the relay helper. Started with
/// posix_spawn (no shell), with the current environment.
struct Spawned {
    let pid: pid_t

    /// Starts `arguments[0]` (a path) with `arguments`. `stdin` is a file to read from (default
    /// /dev/null); stdout and stderr go to `output` (default /dev/null). `descriptors` maps
    /// descriptors of ours to the numbers the child sees them as. `environment`, when given, is
    /// the child's instead of this process's.
    static func start(_ arguments: [String], stdin: String = "/dev/null", output: String = "/dev/null", truncating: Bool = false,
                      descriptors: [(ours: Int32, theirs: Int32)] = [], environment: ChildEnvironment? = nil) throws -> Spawned {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdin, O_RDONLY, 0)
        // /dev/null, and with `truncating` any file, is opened as the shell's `>` opens it,
        // without O_APPEND (which refuses copy_file_range, what `pb paste` and `cat` use for a
        // file into a file); logs are appended to.
        let flags = output == "/dev/null" ? O_WRONLY : truncating ? O_WRONLY | O_CREAT | O_TRUNC : O_WRONLY | O_CREAT | O_APPEND
        posix_spawn_file_actions_addopen(&actions, 1, output, flags, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        for (ours, theirs) in descriptors { posix_spawn_file_actions_adddup2(&actions, ours, theirs) }
        var argv = arguments.map { strdup($0) }
        argv.append(nil)
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, arguments[0], &actions, nil, argv, environment?.variables ?? environ)
        guard status == 0 else { throw BenchError("cannot start \(arguments[0]): \(SystemError.describe(status))") }
        return Spawned(pid: pid)
    }

    /// Waits for the program to exit; returns its exit status (128 + signal when killed).
    @discardableResult
    func wait() -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        if status & 0x7f == 0 { return (status >> 8) & 0xff }
        return 128 + (status & 0x7f)
    }

    /// Stops the program (SIGTERM, then SIGKILL after two seconds) and reaps it.
    func stop() {
        kill(pid, SIGTERM)
        for _ in 0..<200 {
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid { return }
            usleep(10_000)
        }
        kill(pid, SIGKILL)
        wait()
    }

    /// Runs `arguments` to completion and returns how long the whole process took.
    static func time(_ arguments: [String], stdin: String = "/dev/null", environment: ChildEnvironment? = nil) throws -> (status: Int32, elapsed: Duration) {
        let clock = ContinuousClock()
        let started = clock.now
        let status = try start(arguments, stdin: stdin, environment: environment).wait()
        return (status, clock.now - started)
    }

    /// The absolute path of `program` on PATH, or nil.
    static func find(_ program: String) -> String? {
        CompanionExecutable.onPath(program, path: getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin")
    }

    /// The directory this executable is in (where pb and pasteboardd are built too).
    static var ownDirectory: String {
        CompanionExecutable.ownDirectory ?? "."
    }
}

/// A failure of the bench itself (a tool that cannot start, a scenario that went wrong).
struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

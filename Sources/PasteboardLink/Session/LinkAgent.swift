#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CPasteboardSystem
import Pasteboard
import PasteboardSystem
import Synchronization

/// The two ends of a link as programs run them: `dial` (`pb link HOST`, and the daemon's
/// `link` children) runs ssh to the other machine and keeps the link up, starting it again with
/// a back-off when it drops; `serve` (`pb link --serve`, which ssh runs there) links that
/// machine's daemon to ssh's standard input and output, once.
public enum LinkAgent {
    /// Keeps a link to `command.destination` up until the task is cancelled (or, with `once`,
    /// until the first attempt ends, whose failure is thrown). Between attempts it waits 1 s,
    /// doubling to 60 s, short again once an attempt lasted a minute.
    public static func dial(
        _ command: SSHCommand, settings: LinkSettings, socketPath: String, environment: [String: String],
        once: Bool = false, log: @escaping @Sendable (String) -> Void
    ) async throws {
        pasteboard_ignore_sigpipe()
        let file = LinkStatusFile.file(socketPath: socketPath, name: command.destination)
        let lock = LinkLock(file: file, destination: command.destination)
        defer { lock.release() }
        let reporter = LinkStatusReporter(LinkStatus(destination: command.destination, pid: getpid(), state: .connecting, since: LinkStatusReporter.wallSeconds),
                                          file: file, log: log)
        var delay: Duration = .seconds(1)
        while !Task.isCancelled {
            let started = ContinuousClock.now
            reporter.set(.connecting)
            let failure: any Error
            do {
                try await attempt(command, settings: settings, socketPath: socketPath, environment: environment, reporter: reporter, lock: lock)
                failure = LinkError("the link to \(command.destination) ended")
            } catch {
                failure = error
            }
            if Task.isCancelled { return }
            if once || (failure as? LinkError)?.isFatal == true { throw failure }
            if ContinuousClock.now - started > .seconds(60) { delay = .seconds(1) }
            reporter.set(.retrying, error: "\(failure)", retryIn: Double(delay.seconds))
            log("link to \(command.destination): \(failure); trying again in \(delay.seconds) s")
            try? await Task.sleep(for: delay)
            delay = min(delay * 2, .seconds(60))
        }
    }

    private static func attempt(
        _ command: SSHCommand, settings: LinkSettings, socketPath: String, environment: [String: String], reporter: LinkStatusReporter,
        lock: LinkLock
    ) async throws {
        try await PasteboardConnection.withConnection(socketPath: socketPath, clientName: "pb link") { connection in
            // The socket's directory exists once the daemon runs: the lock is taken then.
            try lock.take()
            reporter.startWriting()
            // The other end finds its own daemon: this one's socket is not passed on (a ssh that
            // sends the environment, or a wrapper that runs the command here, would link it to itself).
            var sshEnvironment = environment
            sshEnvironment["PASTEBOARD_SOCKET"] = nil
            let ssh = try SSHProcess(command, environment: sshEnvironment)
            let errors = Task { await ssh.collectErrors { reporter.log("ssh: \($0)") } }
            var failure: any Error
            do {
                try await LinkStream.run(input: ssh.input, output: ssh.output, connection: connection, settings: settings, role: .dialer,
                                         reporter: reporter, handshakeTimeout: settings.handshakeTimeout)
                failure = LinkError("the link to \(command.destination) ended")
            } catch {
                failure = error
            }
            let status = await ssh.stop(grace: .seconds(2))
            await errors.value
            throw explain(failure, status: status, errors: ssh.errorLines, command: command, linked: reporter.current.state == .up)
        }
    }

    /// What a failed attempt means for the user: ssh's own failure, a remote machine without
    /// pb or with one too old for links, or the link's error as it is. Once `linked` (the
    /// attempt came up), ssh's 255 is ssh stopped as the link ended, and the link's error says
    /// why (it stalled), not "could not reach".
    static func explain(_ failure: any Error, status: Int32, errors: [String], command: SSHCommand, linked: Bool = false) -> LinkError {
        let exited = status & 0x7f == 0 ? (status >> 8) & 0xff : nil
        let said = errors.last.map { " (\($0))" } ?? ""
        let remote = command.remote.first ?? "pb"
        switch exited {
        case 127:
            return LinkError("\(command.destination) has no '\(remote)' on the PATH ssh gives it\(said): install pb there, or name it with --remote-pb")
        case 255 where !linked:
            return LinkError("ssh could not reach \(command.destination)\(said)")
        case 64 where "\(failure)".contains("before its hello"), 2 where "\(failure)".contains("before its hello"):
            return LinkError("the pb on \(command.destination) does not know 'pb link --serve' (too old?)\(said): install this release there")
        default:
            if "\(failure)".contains("before its hello"), !errors.isEmpty {
                return LinkError("the other end closed the link before its hello\(said)")
            }
            return failure as? LinkError ?? LinkError("\(failure)")
        }
    }

    /// Links this machine's daemon to the other end on standard input and output (ssh's), once,
    /// until the link ends. Nothing else may write to standard output.
    public static func serve(settings: LinkSettings, socketPath: String, log: @escaping @Sendable (String) -> Void) async throws {
        pasteboard_ignore_sigpipe()
        let file = LinkStatusFile.file(socketPath: socketPath, name: "served-\(getpid())")
        let lock = LinkLock(file: file, destination: "served")
        defer { lock.release() }
        let reporter = LinkStatusReporter(LinkStatus(destination: "served", pid: getpid(), state: .connecting, since: LinkStatusReporter.wallSeconds),
                                          file: file, log: log)
        let input = dup(0), output = dup(1)
        guard input >= 0, output >= 0 else { throw LinkError("cannot use standard input and output: \(SystemError.current)") }
        // Standard output is the link's alone from now on.
        let null = open("/dev/null", O_WRONLY)
        if null >= 0 {
            dup2(null, 1)
            close(null)
        }
        try await PasteboardConnection.withConnection(socketPath: socketPath, clientName: "pb link --serve") { connection in
            try lock.take()
            reporter.startWriting()
            try await LinkStream.run(input: input, output: output, connection: connection, settings: settings, role: .server,
                                     reporter: reporter, handshakeTimeout: settings.handshakeTimeout)
        }
    }
}

/// The lock of one link's status file, taken once the daemon's directory exists (at the first
/// connection) and held until the link's process ends: a second `pb link` of the same
/// destination is refused, and `pb link --status` knows the link runs.
final class LinkLock: Sendable {
    private let file: StatusFile<LinkStatus>
    private let destination: String
    private let descriptor = Mutex<Int32?>(nil)

    init(file: StatusFile<LinkStatus>, destination: String) {
        self.file = file
        self.destination = destination
    }

    /// Takes the lock unless it is held already; throws when another process holds it.
    func take() throws(LinkError) {
        if descriptor.withLock({ $0 }) != nil { return }
        let fd: Int32?
        do throws(StatusFile<LinkStatus>.Failure) { fd = try file.lock(waits: false) } catch { throw LinkError(error.description) }
        guard let fd else {
            let pid = (try? file.read())?.pid
            throw LinkError("a link to \(destination) already runs\(pid.map { " (pid \($0))" } ?? ""): see pb link --status", isFatal: true)
        }
        descriptor.withLock { $0 = fd }
    }

    /// Removes the status and its lock file, and lets the lock go.
    func release() {
        guard let fd = descriptor.withLock({ $0 }) else { return }
        unlink(file.path)
        unlink(file.lockPath)
        close(fd)
    }
}

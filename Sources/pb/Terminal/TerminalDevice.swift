#if canImport(Glibc)
import Glibc
#endif
import PasteboardCLI
import PasteboardSystem

/// The controlling terminal, `/dev/tty`: where OSC 52 goes, never stdout, which is often a pipe
/// (`pb copy --osc52 < file | tee`, `pb paste --osc52 > out`). Opened for reading and writing;
/// checked to be a terminal before a byte is written.
final class TerminalDevice {
    static let path = "/dev/tty"

    let descriptor: Int32

    /// Opens the controlling terminal; fails when the process has none (a cron job, a container
    /// started without `-t`) or it is not a terminal.
    init() throws(CLIError) {
        let fd = open(Self.path, O_RDWR | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { throw .failure("OSC 52 needs a terminal: cannot open \(Self.path): \(SystemError.current)") }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFCHR, isatty(fd) == 1 else {
            close(fd)
            throw .failure("OSC 52 needs a terminal: \(Self.path) is not one")
        }
        descriptor = fd
    }

    deinit { close(descriptor) }

    /// Whether this process could use OSC 52 without being asked to: `/dev/tty` opens as a
    /// terminal and TERM names one that is not `dumb` (which shows escape sequences as text).
    static var isUsableUnasked: Bool {
        guard let term = ProcessEnvironment.value("TERM"), !term.isEmpty, term != "dumb" else { return false }
        return (try? TerminalDevice()) != nil
    }

    /// Writes all of `bytes`.
    func write(_ bytes: [UInt8]) throws(CLIError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                throw .failure("cannot write to \(Self.path): \(SystemError.current)")
            }
            offset += written
        }
    }

    /// Runs `body` with the terminal in raw mode (no echo, no line editing, so that an answer
    /// arrives byte by byte and never shows), and puts the terminal's mode back however `body`
    /// ends. SIGINT and SIGTERM must reach `body` as an event (``Signals/interruptDescriptor()``
    /// polled beside the terminal), never as the default action, or the mode would stay raw:
    /// Ctrl-C still raises SIGINT (ISIG stays on).
    func withRawMode<Result>(_ body: () throws -> Result) throws -> Result {
        var saved = termios()
        guard tcgetattr(descriptor, &saved) == 0 else { throw CLIError.failure("cannot read \(Self.path)'s mode: \(SystemError.current)") }
        var raw = saved
        cfmakeraw(&raw)
        raw.c_lflag |= tcflag_t(ISIG)
        raw.c_oflag = saved.c_oflag  // output as before: a message printed meanwhile keeps its line ends
        guard tcsetattr(descriptor, TCSANOW, &raw) == 0 else { throw CLIError.failure("cannot set \(Self.path)'s mode: \(SystemError.current)") }
        defer { _ = tcsetattr(descriptor, TCSANOW, &saved) }
        return try body()
    }

    /// What one wait for input came to.
    enum Readiness {
        case bytes([UInt8])
        case timedOut
        case interrupted
    }

    /// Waits until the terminal has input, `interrupt` is readable (a signal arrived), or
    /// `deadline` passes; returns what arrived.
    func read(until deadline: ContinuousClock.Instant, interrupt: Int32?) throws(CLIError) -> Readiness {
        while true {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { return .timedOut }
            let (seconds, attoseconds) = left.components
            let milliseconds = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
            var waiting = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
            if let interrupt { waiting.append(pollfd(fd: interrupt, events: Int16(POLLIN), revents: 0)) }
            let ready = poll(&waiting, nfds_t(waiting.count), milliseconds)
            if ready < 0 {
                if errno == EINTR { continue }
                throw .failure("cannot wait for \(Self.path): \(SystemError.current)")
            }
            if waiting.count > 1, waiting[1].revents != 0 { return .interrupted }
            guard waiting[0].revents != 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 64 << 10)
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw .failure("cannot read \(Self.path): \(SystemError.current)")
            }
            if count == 0 { throw .failure("\(Self.path) closed before the terminal answered") }
            return .bytes(Array(buffer.prefix(count)))
        }
    }
}

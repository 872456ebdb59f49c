#if canImport(Glibc)
import Glibc
#endif
import CPasteboardSystem
import NIOCore
import PasteboardCLI
import PasteboardSystem
import PasteboardTypes

/// Paste-N in the background, as the originals fork: `echo secret | wl-copy -o` returns at once
/// while the data waits for its paste. A Swift process cannot fork safely once it may run
/// threads, so the mode starts `pb` again (this executable, by /proc/self/exe) in a session of
/// its own with an internal first argument, hands it the bytes through a pipe, and returns once
/// the new process reports that its item is on the pasteboard, or with its error.
///
/// The internal invocation is `pb --serve-pastes-in-background TOOL COUNT PASTEBOARD TYPE
/// SENSITIVE` with the bytes on stdin and a pipe for its report as stdout and stderr: not for
/// people (it is in no help), and every value is checked again where it arrives.
enum BackgroundPasteServer {
    /// The internal first argument.
    static let flag = "--serve-pastes-in-background"
    /// How long the mode waits for the server's report: the daemon's start is bounded well within it.
    static let readyTimeoutMilliseconds: Int32 = 30_000
    private static let readyLine = "ready\n"

    /// Starts the server for `serving` and returns once it serves; throws its error otherwise.
    static func start(_ serving: PasteServing) throws {
        pasteboard_ignore_sigpipe()
        var input: [Int32] = [-1, -1], report: [Int32] = [-1, -1]
        guard pipe(&input) == 0 else { throw failure(serving.tool, "cannot create a pipe: \(SystemError.current)") }
        guard pipe(&report) == 0 else {
            close(input[0]); close(input[1])
            throw failure(serving.tool, "cannot create a pipe: \(SystemError.current)")
        }
        // Only the server gets them (as its stdin, stdout and stderr), never another child.
        for fd in input + report { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        let arguments = ["pb", flag, serving.tool.rawValue, String(serving.count), serving.pasteboard, serving.type.rawValue,
                         serving.sensitive ? "1" : "0"]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let pid = pasteboard_spawn_background("/proc/self/exe", &argv, environ, input[0], report[1], report[1])
        let spawnError = errno
        close(input[0])
        close(report[1])
        defer { close(report[0]) }
        guard pid > 0 else {
            close(input[1])
            throw failure(serving.tool, "cannot start the background server: \(SystemError.describe(spawnError))")
        }
        // A server that died early closes its end: the write fails, and its report says why.
        for chunk in serving.chunks { guard (try? Output.write(chunk, to: input[1])) != nil else { break } }
        close(input[1])
        let text = readReport(report[0])
        if text.hasPrefix(readyLine) { return }
        if text.isEmpty {
            kill(pid, SIGTERM)
            throw failure(serving.tool, "the background server did not report within \(readyTimeoutMilliseconds / 1000) seconds")
        }
        throw CompatibilityFailure.verbatim(String(text.dropLast(text.hasSuffix("\n") ? 1 : 0)))
    }

    /// The server's report: `ready` or its error lines, read until it says ready, closes the
    /// pipe, or the timeout passes (then empty).
    private static func readReport(_ fd: Int32) -> String {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let deadline = ContinuousClock.now + .milliseconds(Int(readyTimeoutMilliseconds))
        while bytes.count < 65536 {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { return "" }
            let milliseconds = Int32(clamping: left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1)
            let ready = poll(&poller, 1, milliseconds)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { continue }
            let count = read(fd, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += buffer[..<count]
            if bytes.starts(with: Array(readyLine.utf8)) { break }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func failure(_ tool: CompatibilityTool, _ message: String) -> CompatibilityFailure {
        .failure(tool, message)
    }

    // MARK: - The server's side

    /// Runs the internal invocation `arguments` (after the flag) and exits: reads the bytes,
    /// serves them, and reports on stdout.
    static func serve(_ arguments: [String]) async -> Never {
        guard arguments.count == 5, let tool = CompatibilityTool(rawValue: arguments[0]),
              let count = Int(arguments[1]), (1...PasteServing.maximumCount).contains(count),
              PasteboardName.validationFailure(arguments[2]) == nil,
              let type = TypeIdentifier.wellFormed(arguments[3]), ["0", "1"].contains(arguments[4])
        else {
            Output.printError("pb: \(flag) is internal to pb's compatibility modes")
            exit(ExitStatus.usage)
        }
        do {
            let chunks = try CopyInput.standardInput.chunks()
            let serving = PasteServing(tool: tool, pasteboard: arguments[2], type: type, chunks: chunks,
                                       sensitive: arguments[4] == "1", count: count)
            try await serving.serve(ready: {
                Output.writeError(readyLine)
                // Nobody reads the report any more: later messages go nowhere, as a forked original's would.
                let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
                if null >= 0 { dup2(null, 1); dup2(null, 2); close(null) }
            })
        } catch {
            CompatibilityFailure.exit(with: error, tool: tool)
        }
        exit(ExitStatus.success)
    }
}

#if canImport(Glibc)
import Glibc
#endif
import Pasteboard
import PasteboardCLI

/// What `pb paste` does once its arguments are known, whether ArgumentParser or the quick
/// path (``QuickInvocation``) read them.
struct PasteJob {
    /// The named pasteboard.
    var pasteboard: String
    /// The accepted type words (`-t`), most preferred first.
    var types: [String] = []
    /// Which item, from 0.
    var item = 0
    /// The file to write (through a temporary file and a rename); nil for stdout.
    var output: String?
    /// How progress is shown.
    var progress: ProgressDisplay.Mode
    /// Whether data that is not text is written to a terminal too (`--force`).
    var force = false

    /// Pastes through `connection` on this thread; SIGINT and SIGTERM cancel the load.
    func run(on connection: BlockingConnection) throws {
        let accepted = types.isEmpty ? [] : try TypeArguments.pasteTypes(types, registry: TypeArguments.registry(resolving: types))
        let file = try output.map { path throws(CLIError) in try AtomicFileWriter(path: path) }
        let display = ProgressDisplay(mode: progress)
        defer { display.finish() }
        let checksTerminal = TerminalOutput.needsCheck(output: output, force: force)
        // A large stored copy goes from the daemon's file to the output inside the kernel; a
        // terminal gets the bytes through `Output` as always.
        let direct = file?.descriptor ?? (isatty(1) == 1 ? nil : 1)
        do {
            try connection.loadBuffers(pasteboard: pasteboard, item: item, accepting: accepted,
                                       interrupt: Signals.interruptDescriptor(), output: direct, progress: display.update,
                                       header: { if checksTerminal { try TerminalOutput.refuseUnlessText($0) } }) { chunk in
                if let file { try file.write(chunk) } else { try Output.write(chunk, to: 1) }
            }
        } catch is KernelCopy.OutputClosed {
            throw CLIError.quietFailure  // as a write that met EPIPE: the reader has what it wanted
        }
        try file?.commit()
    }

    /// Pastes through a `PasteboardConnection`, starting the daemon when none runs.
    func run() async throws {
        // The registry (built-in and user types) is read only when there are type words to resolve.
        let accepted = types.isEmpty ? [] : try TypeArguments.pasteTypes(types, registry: TypeArguments.registry(resolving: types))
        let file = try output.map { path throws(CLIError) in try AtomicFileWriter(path: path) }
        let display = ProgressDisplay(mode: progress)
        let pasteboard = pasteboard
        let item = item
        let checksTerminal = TerminalOutput.needsCheck(output: output, force: force)
        try await Signals.cancellingOnInterrupt {
            defer { display.finish() }
            try await PasteboardOptions.withPasteboard(named: pasteboard) { pasteboard in
                try await pasteboard.loadBuffers(item: item, accepting: accepted, progress: display.update,
                                                 header: { if checksTerminal { try TerminalOutput.refuseUnlessText($0) } }) { chunk in
                    if let file { try file.write(chunk) } else { try Output.write(chunk, to: 1) }
                }
            }
            try file?.commit()
        }
    }
}

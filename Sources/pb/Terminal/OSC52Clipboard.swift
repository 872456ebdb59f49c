#if canImport(Glibc)
import Glibc
#endif
import NIOCore
import Pasteboard
import PasteboardCLI
import PasteboardSystem

/// `pb copy --osc52` and `pb paste --osc52`: the terminal's own clipboard through OSC 52, where
/// no daemon reaches (a container, a host where pb is only a copied binary). The sequence goes
/// to `/dev/tty`, never to the daemon.
///
/// Inside tmux the plain sequence is sent, not wrapped for passthrough (`ESC P tmux; …`): with
/// `set -g set-clipboard on` tmux 3.3 takes it into a paste buffer and passes it on to the outer
/// terminal (when that one's terminfo entry has `Ms`, as xterm's does), and answers a query
/// from its newest buffer, so both copy and paste work whatever the outer terminal allows.
/// Passthrough needs `allow-passthrough on`, reaches only the outer terminal (and only from a
/// visible pane), and brings no answer back to the pane. GNU screen is not handled: its string
/// limits cut OSC 52 into pieces few terminals join.
struct OSC52Clipboard {
    let selection: OSC52Sequence.Selection
    let setting: OSC52Setting

    /// The terminal's selection for the pasteboard `name`: `general` (the clipboard) or
    /// `primary`; any other name is refused, since a terminal has no named pasteboards.
    init(pasteboard name: String, setting: OSC52Setting) throws(CLIError) {
        guard let selection = OSC52Sequence.Selection(pasteboard: name) else { throw .usage(Self.refusal(pasteboard: name)) }
        self.selection = selection
        self.setting = setting
    }

    /// Why `name` cannot be used with OSC 52.
    static func refusal(pasteboard name: String) -> String {
        "OSC 52 reaches only the terminal's clipboard and primary selection: -p general or -p primary, not '\(name)'"
    }

    // MARK: - Copy

    /// Sets the terminal's selection to the text of `file`, else of stdin.
    func copy(file: String?) throws(CLIError) {
        guard let file else { return try copy(from: 0, describe: "stdin") }
        let fd = open(file, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .failure("cannot open \(file): \(SystemError.current)") }
        defer { close(fd) }
        try copy(from: fd, describe: file)
    }

    /// Sets the terminal's selection to the text on `fd` (`describe` names it in messages),
    /// read only up to the limit: a longer input is refused once the limit is passed, with
    /// nothing sent.
    private func copy(from fd: Int32, describe: String) throws(CLIError) {
        let text = try readText(from: fd, describe: describe)
        let terminal = try TerminalDevice()
        try terminal.write(OSC52Sequence.setting(selection, to: text))
    }

    /// All of `fd` when it is UTF-8 text within the limit's share of text.
    private func readText(from fd: Int32, describe: String) throws(CLIError) -> [UInt8] {
        let maximum = OSC52Sequence.maximumTextCount(within: setting.limit)
        var text: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .failure("cannot read \(describe): \(SystemError.current)")
            }
            if count == 0 { break }
            guard text.count + count <= maximum else { throw .failure(tooLong(maximum)) }
            text += buffer.prefix(count)
        }
        guard String(validating: text, as: UTF8.self) != nil else {
            throw .failure("OSC 52 carries text only: \(describe) is not UTF-8 text")
        }
        return text
    }

    private func tooLong(_ maximum: Int) -> String {
        "the text is more than OSC 52 carries: at most \(maximum) bytes (a sequence of \(setting.limit) bytes, "
            + "which terminals take; \(OSC52Setting.limitVariable) raises it, tmux 3.3 takes up to 1048576)"
    }

    // MARK: - Paste

    /// Asks the terminal for its selection and writes the answer to `output` (through a
    /// temporary file and a rename) or stdout, only once all of it has arrived: nothing is
    /// written when the terminal does not answer in time, answers too much, or is interrupted.
    func paste(to output: String?) throws {
        let file = try output.map { path throws(CLIError) in try AtomicFileWriter(path: path) }
        let text = try ask()
        var buffer = ByteBufferAllocator().buffer(capacity: text.count)
        buffer.writeBytes(text)
        if let file {
            try file.write(buffer)
            try file.commit()
        } else {
            try Output.write(buffer, to: 1)
        }
    }

    /// The terminal's answer to the query, decoded; waits at most the setting's timeout.
    private func ask() throws -> [UInt8] {
        let terminal = try TerminalDevice()
        // Caught before raw mode begins, so a signal can only end the wait, never pb with the mode left raw.
        let interrupt = Signals.interruptDescriptor()
        let state = try terminal.withRawMode { () throws -> OSC52Reply.State in
            try terminal.write(OSC52Sequence.query(selection))
            var reply = OSC52Reply(limit: setting.limit)
            let deadline = ContinuousClock.now + SecondsLimit.duration(setting.timeout)
            while true {
                switch try terminal.read(until: deadline, interrupt: interrupt) {
                case .bytes(let bytes):
                    let state = reply.feed(bytes)
                    if state != .incomplete { return state }
                case .timedOut:
                    return .noAnswer
                case .interrupted:
                    throw CancellationError()
                }
            }
        }
        switch state {
        case .answered(let text) where text.isEmpty:
            throw CLIError.failure("the terminal's clipboard is empty")
        case .answered(let text):
            return text
        case .tooLong(let limit):
            throw CLIError.failure("the terminal's answer is longer than \(limit) bytes; \(OSC52Setting.limitVariable) raises the limit")
        case .malformed:
            throw CLIError.failure("the terminal's answer to the OSC 52 query is malformed")
        case .noAnswer, .incomplete:
            throw CLIError.failure(noAnswer)
        }
    }

    private var noAnswer: String {
        "the terminal did not answer the OSC 52 query within \(SecondsLimit.describe(setting.timeout)) seconds "
            + "(\(OSC52Setting.timeoutVariable)); it may not allow programs to read its clipboard: "
            + "xterm needs allowWindowOps true, or GetSelection left out of disallowedWindowOps; "
            + "kitty needs read-clipboard in clipboard_control; foot answers; "
            + "tmux needs set -g set-clipboard on"
    }
}

import Pasteboard
import PasteboardCLI
import PasteboardSystem

/// How pb uses OSC 52 (see ``OSC52Clipboard``) without `--osc52`, and its numbers, from the
/// environment: pb reads no configuration file, and a variable reaches pb wherever it runs
/// (a container, a host it was copied to, an ssh session's `SendEnv`).
///
/// - `PASTEBOARD_OSC52`: `never` (the default), `fallback` (only when no daemon is reachable
///   and none can be started, and a terminal other than `dumb` is there: the one automatic use,
///   documented, and announced by a line on stderr), `always` (as if `--osc52` were given).
/// - `PASTEBOARD_OSC52_LIMIT`: the longest sequence sent or answer read, in bytes.
/// - `PASTEBOARD_OSC52_TIMEOUT`: how long `pb paste` waits for the terminal's answer, in seconds.
struct OSC52Setting {
    enum Use: String {
        case never, fallback, always
    }

    static let useVariable = "PASTEBOARD_OSC52"
    static let limitVariable = "PASTEBOARD_OSC52_LIMIT"
    static let timeoutVariable = "PASTEBOARD_OSC52_TIMEOUT"

    /// How long a paste waits for the terminal unless told otherwise: enough for a terminal
    /// over ssh, short enough that a terminal which ignores the query costs little.
    static let defaultTimeout: Double = 2
    /// The longest wait that may be set; a person confirming a read (kitty's `ask`) needs time.
    static let maximumTimeout: Double = 300

    var use = Use.never
    var limit = OSC52Sequence.defaultLimit
    var timeout = defaultTimeout

    /// The setting in this process's environment; a value out of its range or not one of the
    /// words is a usage error naming the variable.
    static func current() throws(CLIError) -> OSC52Setting {
        var setting = OSC52Setting()
        if let word = ProcessEnvironment.value(useVariable), !word.isEmpty {
            guard let use = Use(rawValue: word) else {
                throw .usage("\(useVariable) must be never, fallback or always, not '\(word)'")
            }
            setting.use = use
        }
        if let text = ProcessEnvironment.value(limitVariable), !text.isEmpty {
            let range = OSC52Sequence.limitRange
            guard let limit = Int(text), range.contains(limit) else {
                throw .usage("\(limitVariable) must be a count of bytes from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
            }
            setting.limit = limit
        }
        if let text = ProcessEnvironment.value(timeoutVariable), !text.isEmpty {
            guard let seconds = Double(text), seconds > 0, seconds <= maximumTimeout else {
                throw .usage("\(timeoutVariable) must be more than 0 and at most \(Int(maximumTimeout)) seconds, not '\(text)'")
            }
            setting.timeout = seconds
        }
        return setting
    }

    /// Whether pb's quick path must step aside so that `Copy` or `Paste` decide: the setting
    /// may send this copy or paste to the terminal, or is malformed (and `Copy` says so). Costs
    /// a look-up of pasteboardd, no connection, when `fallback` is set.
    static var mayApplyUnasked: Bool {
        guard let word = ProcessEnvironment.value(useVariable), !word.isEmpty, word != Use.never.rawValue else { return false }
        return word != Use.fallback.rawValue || !daemonCanStart
    }

    /// Whether this copy or paste goes to the terminal: asked for (`--osc52`, or `always`), or
    /// `fallback` and nothing else reaches (see ``fallbackApplies``). `conflict` says why OSC 52
    /// cannot carry it (nil when it can): then `always` is a usage error, as `--osc52` is, and
    /// `fallback` leaves it to the daemon.
    func usesTerminal(asked: Bool, conflict: String?) throws -> Bool {
        guard asked || use != .never else { return false }
        if let conflict {
            if use == .always { throw CLIError.usage(conflict + " (\(Self.useVariable)=always)") }
            return false
        }
        return asked || use == .always ? true : try Self.fallbackApplies
    }

    /// Runs `body`, the copy or paste through the terminal. When `fallback` chose the terminal,
    /// says so: a line on stderr after it, or, when it fails, a failure to reach the daemon (exit
    /// 3, as without the fallback) that ends with why OSC 52 failed too.
    func throughTerminal(asked: Bool, _ body: () throws -> Void) throws {
        guard !asked && use == .fallback else { return try body() }
        do {
            try body()
        } catch let error as CLIError where !error.message.isEmpty {
            throw PasteboardError.daemonUnreachable(socketPath: PasteboardConnection.defaultSocketPath,
                                                    reason: "\(Self.fallbackReason), and OSC 52 (\(Self.useVariable)=fallback) failed: \(error.message)")
        }
        Output.printError("pb: \(Self.fallbackReason): used the terminal's clipboard (OSC 52, \(Self.useVariable)=fallback)")
    }

    /// `fallback`'s rule: pasteboardd cannot be started (found neither next to pb nor on PATH, or
    /// `PASTEBOARD_NO_AUTOSTART` forbids it), no daemon answers on the socket, and `/dev/tty` is
    /// a terminal whose TERM is not `dumb`. A socket of another user is an error, not a reason
    /// to fall back.
    static var fallbackApplies: Bool {
        get throws {
            guard !daemonCanStart, try QuickInvocation.connect() == nil else { return false }
            return TerminalDevice.isUsableUnasked
        }
    }

    /// Whether pb could start a daemon: as `PasteboardConnection` would (pasteboardd next to pb,
    /// else on PATH, unless `PASTEBOARD_NO_AUTOSTART` is set to anything but "" or "0").
    private static var daemonCanStart: Bool {
        if let value = ProcessEnvironment.value("PASTEBOARD_NO_AUTOSTART"), !value.isEmpty, value != "0" { return false }
        return CompanionExecutable.locate("pasteboardd", path: ProcessEnvironment.value("PATH")) != nil
    }

    /// Why a fallback happened, for the line that says so (nobody should wonder where a copy went).
    private static let fallbackReason = "nothing listens and pasteboardd cannot be started"
}

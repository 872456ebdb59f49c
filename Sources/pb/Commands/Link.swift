import ArgumentParser
import PasteboardCLI
import PasteboardLink
import PasteboardSystem

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `pb link`: links this machine's daemon with another machine's over the user's ssh, so the
/// two share their pasteboards; `--status` shows the links of this machine; `--serve` is the
/// other end, which ssh runs there.
struct Link: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "link",
        abstract: "Share this machine's pasteboards with another machine's daemon, over ssh.",
        discussion: """
            pb link [USER@]HOST runs 'ssh HOST pb link --serve' (your ssh, its config, keys, \
            known_hosts, ControlMaster and ProxyJump; no port is opened) and keeps the link up until \
            interrupted, starting it again after 1 s, doubling to 60 s, when it drops. For links the \
            daemon keeps itself, set 'link = HOST ...' in pasteboardd.conf (see pasteboardd(8)).

            A copy on either machine becomes a copy on the other: every item with all its types; \
            text up to --capture bytes is sent at once (it pastes after the link dropped), everything \
            else is fetched from the machine that has it only when pasted there, with progress and \
            cancel reaching the source. Only the general pasteboard is shared unless --share names \
            others. Sensitive items (passwords) stay on their machine unless both ends pass --sensitive. \
            Of two copies made at the same moment on two machines, the same one wins on both \
            (pasteboard-protocol(7), LINKS).

            The ssh command is --ssh, else PASTEBOARD_SSH, else ssh, split into words as a shell would \
            ("ssh -p 2222 -i ~/.ssh/pb"). ssh runs without a terminal: it needs a key, an agent or a \
            ControlMaster, not a password prompt.

            pb link --status shows every link of this machine's daemon (both the ones it dialed and \
            the ones other machines made to it): its peer, its latency and the transfers in flight. \
            Exits 0 when some link runs, 1 when none does.
            """
    )

    @Argument(help: ArgumentHelp("The other machine, as ssh takes it.", valueName: "[user@]host"))
    var destination: String?

    @Option(name: .customLong("ssh"), help: ArgumentHelp("The ssh command and its options (default: PASTEBOARD_SSH, else ssh).", valueName: "command"))
    var ssh: String?

    @Option(name: .customLong("remote-pb"), help: ArgumentHelp("The command that runs pb on the other machine.", valueName: "command"))
    var remotePB = "pb"

    @Option(name: .customLong("share"), parsing: .singleValue,
            help: ArgumentHelp("A pasteboard to share (default: general). Repeat for several.", valueName: "name"))
    var share: [String] = []

    @Flag(name: .customLong("sensitive"), help: "Let sensitive items and their marker types cross too, both ways (this end starts the other with it).")
    var sensitive = false

    @Option(name: .customLong("capture"), help: ArgumentHelp("The most bytes of text sent with a change at once (K, M, G suffixes).", valueName: "size"))
    var capture = "1M"

    @Option(name: .customLong("timeout"), help: ArgumentHelp("Seconds to wait for the other end's hello, ssh's login included, 1 to 3600.", valueName: "seconds"))
    var timeout = 60

    @Flag(name: .customLong("once"), help: "Give up when the link drops or cannot be made, with its reason (exit 1), instead of trying again.")
    var once = false

    @Flag(name: .customLong("status"), help: "Show this machine's links and exit.")
    var status = false

    @Flag(name: .long, help: "With --status, print JSON: {socket, links: [status]}.")
    var json = false

    @Flag(name: .customLong("serve"), help: "Be the other end of a link on standard input and output (what ssh runs on the other machine).")
    var serve = false

    @Option(name: .long, help: ArgumentHelp("Exit when this descriptor, the read end of a pipe, reaches its end (pasteboardd passes 3 to the links it keeps).", valueName: "fd"))
    var lifeline: Int32?

    func validate() throws {
        if status || serve {
            guard destination == nil else { throw ValidationError("--status and --serve take no destination") }
        } else {
            guard let destination else { throw ValidationError("name the machine to link with: pb link [USER@]HOST") }
            if let problem = LinkDestination.problem(destination) { throw ValidationError(problem) }
        }
        for name in share {
            if let failure = PasteboardName.validationFailure(name) { throw ValidationError(failure) }
        }
        guard (1...3600).contains(timeout) else { throw ValidationError("--timeout must be 1 to 3600 seconds, not \(timeout)") }
        guard Self.bytes(capture) != nil else {
            throw ValidationError("--capture takes a size from 0 to 64M (a number, optionally followed by K, M or G), not '\(capture)'")
        }
        if SSHCommand.words(remotePB)?.isEmpty ?? true { throw ValidationError("--remote-pb is empty or has an unclosed quote") }
        if let lifeline {
            guard (0...65_535).contains(lifeline) else { throw ValidationError("--lifeline must be an open pipe's descriptor, not \(lifeline)") }
            guard ParentLifeline.isPipe(lifeline) else { throw ValidationError("--lifeline \(lifeline) is not the read end of a pipe") }
        }
    }

    /// A size with an optional K, M or G suffix, from 0 to 64 MiB; nil otherwise.
    static func bytes(_ text: String) -> Int? {
        var digits = Substring(text)
        var shift = 0
        switch digits.last {
        case "K", "k": shift = 10
        case "M", "m": shift = 20
        case "G", "g": shift = 30
        default: break
        }
        if shift > 0 { digits = digits.dropLast() }
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber), digits.count <= 12, let value = Int(digits) else { return nil }
        let (bytes, overflow) = value.multipliedReportingOverflow(by: 1 << shift)
        guard !overflow, bytes <= 64 << 20 else { return nil }
        return bytes
    }

    var settings: LinkSettings {
        LinkSettings(pasteboards: share.isEmpty ? [PasteboardName.general] : share, sensitive: sensitive, capture: Self.bytes(capture) ?? 1 << 20,
                     handshakeTimeout: .seconds(timeout))
    }

    func run() async throws {
        let socket = SocketLocation.currentSocketPath()
        if status { return try showStatus(socket: socket) }
        let log: @Sendable (String) -> Void = { Output.printError("pb link: \($0)") }
        if let lifeline {
            ParentLifeline.exitAtEnd(of: lifeline) { log("the daemon that started this link is gone; exiting") }
        }
        do {
            if serve {
                try await LinkAgent.serve(settings: settings, socketPath: socket, log: log)
                return
            }
            let environment = ProcessEnvironment.current()
            // The command goes as the user wrote it: ssh joins the words with spaces for the
            // other machine's shell, which reads the user's quotes (a path with a space in it).
            var remote = [remotePB, "link", "--serve", "--capture", String(settings.capture)]
            for name in settings.pasteboards { remote += ["--share", name] }
            if sensitive { remote.append("--sensitive") }
            let command = SSHCommand(ssh: try SSHCommand.sshWords(option: ssh, environment: environment), destination: destination!, remote: remote)
            try await LinkAgent.dial(command, settings: settings, socketPath: socket, environment: environment, once: once, log: log)
        } catch let error as LinkError {
            throw CLIError.failure(error.description)
        }
    }

    /// What `--json` prints.
    struct Report: Encodable {
        let socket: String
        let links: [LinkStatus]
    }

    private func showStatus(socket: String) throws {
        var links: [LinkStatus] = []
        for (_, file) in LinkStatusFile.running(socketPath: socket) {
            if let status = try? file.read() { links.append(status) }
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            try Output.printLine(String(decoding: try encoder.encode(Report(socket: socket, links: links)), as: UTF8.self))
        } else if links.isEmpty {
            try Output.printLine("no links: none runs for \(socket) (pb link HOST, or 'link = HOST' in pasteboardd.conf)")
        } else {
            for link in links { try Output.printLine(Self.describe(link)) }
        }
        if links.isEmpty { throw CLIError.quietFailure }
    }

    /// One link in words: its line, then one line per transfer in flight.
    static func describe(_ link: LinkStatus) -> String {
        let name = link.destination == "served" ? "served to \(link.peer ?? "a machine")" : link.destination
        var line = "\(name) (pid \(link.pid)): \(link.state.rawValue)"
        switch link.state {
        case .up:
            let machine = link.peerMachine.map { String($0.prefix(8)) } ?? "?"
            line += " with \(link.peer ?? "?") (\(machine))"
            if let latency = link.latencyMicroseconds {
                let tenths = (latency + 50) / 100
                line += ", latency \(tenths / 10).\(tenths % 10) ms"
            }
            line += ", sharing \(link.shared.joined(separator: " ")); \(link.changesSent) changes sent, \(link.changesReceived) received"
        case .retrying:
            // The status is a file's word: a number Int cannot hold is shown as no number.
            let again: String = link.retryIn.flatMap { $0.isFinite && (0...86_400).contains($0) ? "; again in \(Int($0)) s" : nil } ?? ""
            line += ": \(link.lastError ?? "failed")" + again
        case .connecting:
            if let error = link.lastError { line += " (last: \(error))" }
        }
        var lines = [line]
        for transfer in link.transfers {
            lines.append("  \(transfer.direction == .incoming ? "fetching" : "sending") \(transfer.type) of '\(transfer.pasteboard)': \(ByteCount.describe(transfer.bytes))")
        }
        return lines.joined(separator: "\n")
    }
}

import ArgumentParser
import NIOCore
import Pasteboard
import PasteboardCLI
import PasteboardSystem
import PasteboardTypes

/// `pb copy`: put stdin, files, or one item of several representations on a pasteboard.
struct Copy: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "copy",
        abstract: "Copy stdin, files, or one item with several representations to a pasteboard.",
        discussion: """
            Without FILE, stdin becomes one item; each FILE becomes one item named after the file. \
            The type comes from -t, else it is sniffed: magic bytes, then the file name's extension, \
            then UTF-8 text, else public.data.

            --rep TYPE=@FILE, --rep TYPE=- (stdin) and --rep TYPE=TEXT build one item whose \
            representations are these, best first.

            pb exits 0 only once the daemon holds the data.

            With --lazy the files are not sent: pb stays in the foreground and reads each file \
            when a destination loads it, streaming it through the daemon, until its items are \
            replaced or cleared (then it exits 0). On SIGINT or SIGTERM it hands the daemon what \
            fits in its capture budget, then exits 0; larger data becomes unavailable. \
            --paste-once serves one load and then clears the pasteboard. When the daemon goes \
            away, pb reconnects (starting it if needed) and puts its items back, unless another \
            copy replaced them meanwhile. Each FILE must be a regular file: a pipe, a FIFO or \
            <(cmd) can be read only once, and is refused at once.

            --sensitive marks the items secret, as does a representation of type \
            org.nspasteboard.ConcealedType, or of type x-kde-passwordManagerHint with the value \
            secret: the daemon keeps them in memory only, never on disk, and pb watch shows only \
            that the pasteboard changed. --expire clears the pasteboard after SECONDS (more than 0, \
            at most 1000000000) unless it changed meanwhile.

            --osc52 sets the terminal's clipboard (or, with -p primary, its primary selection) \
            with the OSC 52 escape sequence, written to /dev/tty, without the daemon: for a \
            container or a host where pb is only a copied binary. It takes UTF-8 text from stdin \
            or one FILE, at most 74994 bytes (a 100000-byte sequence; PASTEBOARD_OSC52_LIMIT \
            raises it), and refuses more before sending anything. Inside tmux it needs 'set -g \
            set-clipboard on'. PASTEBOARD_OSC52=fallback uses it only when no daemon is \
            reachable and none can be started, and says so on stderr; PASTEBOARD_OSC52=always \
            on every copy (see pb(1), OSC 52).
            """
    )

    @OptionGroup var options: PasteboardOptions

    @OptionGroup var input: ItemArguments

    @Flag(name: .customLong("lazy"), help: "Do not send file data now: stay and serve each load from the files.")
    var lazy = false

    @Flag(name: .customLong("paste-once"), help: "With --lazy: serve a single load, then clear the pasteboard.")
    var pasteOnce = false

    @Flag(name: [.customShort("v"), .customLong("verbose")], help: "With --lazy: report each load on stderr.")
    var verbose = false

    @Flag(name: .customLong("sensitive"), help: "A secret: the daemon keeps it in memory only (never on disk), and watchers see only that it changed.")
    var sensitive = false

    @Flag(name: .customLong("osc52"), help: "Set the terminal's clipboard with OSC 52 (on /dev/tty), not the daemon's: text from stdin or one FILE.")
    var osc52 = false

    @Option(name: .customLong("expire"), parsing: .unconditional, help: ArgumentHelp("Clear the pasteboard this many seconds after the copy, unless it changed meanwhile.", valueName: "seconds"))
    var expire: Double?

    func validate() throws {
        if pasteOnce && !lazy { throw ValidationError("--paste-once needs --lazy") }
        if verbose && !lazy { throw ValidationError("--verbose needs --lazy") }
        if lazy { try input.validateLazy() }
        if let expire, let failure = SecondsLimit.validationFailure(expire) { throw ValidationError("--expire \(failure)") }
        if osc52, let conflict = osc52Conflict { throw ValidationError(conflict) }
    }

    /// Why this copy cannot go through OSC 52, which sends one text now to a terminal that keeps
    /// no secret and no expiry; nil when it can.
    private var osc52Conflict: String? {
        if lazy { return "--osc52 sends the text now: it does not take --lazy" }
        if sensitive { return "--osc52 does not take --sensitive: a terminal's clipboard keeps no secret" }
        if expire != nil { return "--osc52 does not take --expire: a terminal's clipboard does not expire" }
        if !input.representations.isEmpty { return "--osc52 copies one text: it does not take --rep" }
        if input.files.count > 1 { return "--osc52 copies one text: give stdin or one FILE, not \(input.files.count) files" }
        if OSC52Sequence.Selection(pasteboard: options.pasteboard) == nil { return OSC52Clipboard.refusal(pasteboard: options.pasteboard) }
        return nil
    }

    /// `items` marked sensitive when asked.
    private func marked(_ items: [ItemProvider]) -> [ItemProvider] {
        items.map { item in
            var item = item
            if sensitive { item.isSensitive = true }
            return item
        }
    }

    private var expiry: Duration? { expire.map(SecondsLimit.duration) }

    func run() async throws {
        let setting = try OSC52Setting.current()
        if try setting.usesTerminal(asked: osc52, conflict: osc52Conflict) {
            try setting.throughTerminal(asked: osc52) { try copyToTerminal(setting) }
            return
        }
        let registry = TypeArguments.registry().registry
        if lazy {
            try await serveLazily(registry: registry)
            return
        }
        let items = marked(try input.eagerItems(registry: registry, streaming: true))
        // Through a running daemon on this thread first (no event loop: a large file streams
        // from a single thread); when none answers, through `PasteboardConnection`, which starts
        // one (a stream is untouched until a daemon has answered, so it carries over).
        if let connection = try QuickInvocation.connect() {
            do {
                try connection.setItems(items, on: options.pasteboard, expiringAfter: expiry)
                return
            } catch PasteboardError.daemonUnreachable {
                // closed before its welcome (shutting down): nothing was written
            }
        }
        try await Self.copy(items, to: options.pasteboard, expiringAfter: expiry)
    }

    /// The copy through OSC 52: `-t`, when given, must be plain text.
    private func copyToTerminal(_ setting: OSC52Setting) throws {
        if let word = input.type {
            let registry = TypeArguments.registry().registry
            let type = try TypeArguments.copyType(word, registry: registry)
            guard registry.conforms(type, to: .plainText) else { throw CLIError.usage("OSC 52 carries text only: -t \(word) is not plain text") }
        }
        try OSC52Clipboard(pasteboard: options.pasteboard, setting: setting).copy(file: input.files.first)
    }

    /// Puts `items`, their data read already, on the pasteboard `name`; returns once the daemon holds them.
    static func copy(_ items: [ItemProvider], to name: String, expiringAfter expiry: Duration? = nil) async throws {
        try await PasteboardOptions.withPasteboard(named: name) { pasteboard in
            try await pasteboard.setItems(items, expiringAfter: expiry)
        }
    }

    // MARK: - Lazy

    private func serveLazily(registry: TypeRegistry) async throws {
        let serving = LazyServing(verbose: verbose, pasteOnce: pasteOnce)
        var source = LiveSource(items: marked(try input.lazyItems(registry: registry, serving: serving)),
                                pasteboard: options.pasteboard, clientName: "pb")
        source.expiry = expiry
        let pasteOnce = pasteOnce
        // Ends when the items leave the pasteboard, after the first delivery with --paste-once
        // (which clears them), or on SIGINT/SIGTERM (then the daemon takes what fits of the data).
        // A lost daemon is waited for: pb reconnects and puts its items back.
        _ = try await source.run(until: { _ = await Signals.next() }, onEvent: { event in
            switch event {
            case .copied(_, reconnected: true):
                Output.printError("pb: reconnected to pasteboardd; the items are on the pasteboard again")
            case .connectionLost(let reason):
                Output.printError("pb: lost pasteboardd (\(reason)); reconnecting")
            case .copied, .retrying:
                break
            }
        }, whileConnected: { pasteboard, changeCount in
            guard pasteOnce else { return }
            await serving.firstDelivery()
            _ = try? await pasteboard.clear(ifChangeCount: changeCount)
        })
    }
}

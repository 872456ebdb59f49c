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

    @Option(name: .customLong("expire"), parsing: .unconditional, help: ArgumentHelp("Clear the pasteboard this many seconds after the copy, unless it changed meanwhile.", valueName: "seconds"))
    var expire: Double?

    func validate() throws {
        if pasteOnce && !lazy { throw ValidationError("--paste-once needs --lazy") }
        if verbose && !lazy { throw ValidationError("--verbose needs --lazy") }
        if lazy { try input.validateLazy() }
        if let expire, let failure = SecondsLimit.validationFailure(expire) { throw ValidationError("--expire \(failure)") }
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

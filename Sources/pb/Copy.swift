import ArgumentParser
import NIOCore
import Pasteboard
import PasteboardTypes

/// `pb copy`: put stdin, files, or one item of several representations on a pasteboard.
struct Copy: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
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
            --paste-once serves one load and then clears the pasteboard.
            """
    )

    @OptionGroup var options: PasteboardOptions

    @Option(name: [.customShort("t"), .customLong("type")],
            help: ArgumentHelp("The type of the data: a type identifier or a MIME type.", valueName: "type"))
    var type: String?

    @Option(name: .customLong("rep"), parsing: .singleValue,
            help: ArgumentHelp("A representation of one item: TYPE=@FILE, TYPE=- (stdin) or TYPE=TEXT. Repeat, best first.", valueName: "type=source"))
    var representations: [String] = []

    @Flag(name: .customLong("lazy"), help: "Do not send file data now: stay and serve each load from the files.")
    var lazy = false

    @Flag(name: .customLong("paste-once"), help: "With --lazy: serve a single load, then clear the pasteboard.")
    var pasteOnce = false

    @Flag(name: [.customShort("v"), .customLong("verbose")], help: "With --lazy: report each load on stderr.")
    var verbose = false

    @Argument(help: ArgumentHelp("Files to copy, one item each (default: stdin).", valueName: "file"))
    var files: [String] = []

    func validate() throws {
        if !representations.isEmpty && !files.isEmpty { throw ValidationError("give either --rep or FILE arguments, not both") }
        if !representations.isEmpty && type != nil { throw ValidationError("-t does not apply to --rep; put the type in each --rep") }
        let stdinReaders = representations.filter { spec in
            Self.typeSeparator(in: spec).map { spec[spec.index(after: $0)...] == "-" } ?? false
        }
        if stdinReaders.count > 1 { throw ValidationError("only one --rep may read stdin") }
        if pasteOnce && !lazy { throw ValidationError("--paste-once needs --lazy") }
        if verbose && !lazy { throw ValidationError("--verbose needs --lazy") }
        if lazy && files.isEmpty && representations.isEmpty {
            throw ValidationError("--lazy needs FILE arguments or --rep TYPE=@FILE: stdin can be read only once")
        }
        if lazy && !stdinReaders.isEmpty { throw ValidationError("--lazy cannot serve --rep TYPE=- (stdin can be read only once)") }
    }

    func run() async throws {
        let registry = TypeArguments.registry().registry
        if lazy {
            try await serveLazily(registry: registry)
            return
        }
        let items = try buildItems(registry: registry)
        try await options.withPasteboard { pasteboard in
            try await pasteboard.setItems(items)
        }
    }

    // MARK: - Eager

    private func buildItems(registry: TypeRegistry) throws(CLIError) -> [ItemProvider] {
        let explicitType = try type.map { word throws(CLIError) in try TypeArguments.copyType(word, registry: registry) }
        if !representations.isEmpty {
            return [try representationItem(registry: registry)]
        }
        if files.isEmpty {
            let chunks = try Input.readAll(fd: 0, describe: "stdin")
            var item = ItemProvider()
            item.registerData(chunks: chunks, for: explicitType ?? sniff(chunks, filename: nil, registry))
            return [item]
        }
        var items: [ItemProvider] = []
        for file in files {
            let chunks = try Input.readFile(file)
            let name = Self.basename(file)
            var item = ItemProvider(suggestedName: name)
            item.registerData(chunks: chunks, for: explicitType ?? sniff(chunks, filename: name, registry))
            items.append(item)
        }
        return items
    }

    private func representationItem(registry: TypeRegistry, lazy: LazyServing? = nil) throws(CLIError) -> ItemProvider {
        var item = ItemProvider()
        for spec in representations {
            guard let equals = Self.typeSeparator(in: spec) else {
                throw .usage("--rep '\(spec)' is not TYPE=@FILE, TYPE=- or TYPE=TEXT")
            }
            let type = try TypeArguments.copyType(String(spec[..<equals]), registry: registry)
            if item.registeredTypes.contains(type) { throw .usage("--rep lists \(type) twice") }
            let source = spec[spec.index(after: equals)...]
            if source == "-" {
                item.registerData(chunks: try Input.readAll(fd: 0, describe: "stdin"), for: type)
            } else if source.hasPrefix("@") {
                let path = String(source.dropFirst())
                if item.suggestedName == nil { item.suggestedName = Self.basename(path) }
                if let lazy {
                    let (size, _) = try Input.peekFile(path, count: 0)
                    lazy.register(path, type: type, size: size, in: &item)
                } else {
                    item.registerData(chunks: try Input.readFile(path), for: type)
                }
            } else {
                item.registerData(Array(source.utf8), for: type)
            }
        }
        return item
    }

    // MARK: - Lazy

    private func serveLazily(registry: TypeRegistry) async throws {
        let explicitType = try type.map { word throws(CLIError) in try TypeArguments.copyType(word, registry: registry) }
        let serving = LazyServing(verbose: verbose, pasteOnce: pasteOnce)
        var items: [ItemProvider] = []
        if !representations.isEmpty {
            items = [try representationItem(registry: registry, lazy: serving)]
        } else {
            for file in files {
                let (size, prefix) = try Input.peekFile(file, count: 4096)
                let name = Self.basename(file)
                let type = explicitType ?? registry.sniff(prefix: prefix, isComplete: prefix.count == size, filename: name)
                var item = ItemProvider(suggestedName: name)
                serving.register(file, type: type, size: size, in: &item)
                items.append(item)
            }
        }
        let pasteboardName = options.pasteboard
        try await options.withPasteboard { pasteboard in
            let changeCount = try await pasteboard.setItems(items)
            let connection = pasteboard.connection
            // Ends when the items leave the pasteboard, after the first delivery with --paste-once
            // (which clears them), or on SIGINT/SIGTERM (then withConnection hands the data over).
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await connection.waitUntilPromisesReleased() }
                group.addTask { _ = await Signals.next() }
                if pasteOnce {
                    group.addTask {
                        await serving.firstDelivery()
                        _ = try? await Pasteboard(name: pasteboardName, connection: connection).clear(ifChangeCount: changeCount)
                        await connection.waitUntilPromisesReleased()
                    }
                }
                await group.next()
                group.cancelAll()
            }
        }
    }

    // MARK: - Helpers

    /// The '=' that ends TYPE in TYPE=SOURCE: the first one not inside a MIME parameter, so
    /// `text/plain;charset=utf-8=hello` splits after `utf-8`.
    static func typeSeparator(in spec: String) -> String.Index? {
        var index = spec.startIndex
        while let equals = spec[index...].firstIndex(of: "=") {
            let type = spec[..<equals]
            if !type.isEmpty, type.split(separator: ";", omittingEmptySubsequences: false).dropFirst().allSatisfy({ $0.contains("=") }) {
                return equals
            }
            index = spec.index(after: equals)
        }
        return nil
    }

    private static func basename(_ path: String) -> String? {
        path.split(separator: "/").last.map(String.init)
    }

    private func sniff(_ chunks: [ByteBuffer], filename: String?, _ registry: TypeRegistry) -> TypeIdentifier {
        let total = chunks.reduce(0) { $0 + $1.readableBytes }
        let prefix = Input.prefix(of: chunks, count: 4096)
        return registry.sniff(prefix: prefix, isComplete: prefix.count == total, filename: filename)
    }
}

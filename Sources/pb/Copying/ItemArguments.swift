import ArgumentParser
import NIOCore
import Pasteboard
import PasteboardCLI
import PasteboardTypes

/// The items a command offers (`pb copy`, `pb drag`): stdin, FILE arguments (one item each),
/// or one item of several representations built from `--rep` (best first).
struct ItemArguments: ParsableArguments {
    @Option(name: [.customShort("t"), .customLong("type")],
            help: ArgumentHelp("The type of the data: a type identifier or a MIME type.", valueName: "type"))
    var type: String?

    @Option(name: .customLong("rep"), parsing: .singleValue,
            help: ArgumentHelp("A representation of one item: TYPE=@FILE, TYPE=- (stdin) or TYPE=TEXT. Repeat, best first.", valueName: "type=source"))
    var representations: [String] = []

    @Argument(help: ArgumentHelp("Files, one item each (default: stdin).", valueName: "file"), completion: .file())
    var files: [String] = []

    func validate() throws {
        if !representations.isEmpty && !files.isEmpty { throw ValidationError("give either --rep or FILE arguments, not both") }
        if !representations.isEmpty && type != nil { throw ValidationError("-t does not apply to --rep; put the type in each --rep") }
        if stdinReaders > 1 { throw ValidationError("only one --rep may read stdin") }
    }

    /// Checks the arguments can be served lazily (read at load time, so never from stdin).
    func validateLazy() throws {
        if files.isEmpty && representations.isEmpty {
            throw ValidationError("serving lazily needs FILE arguments or --rep TYPE=@FILE: stdin can be read only once")
        }
        if stdinReaders > 0 { throw ValidationError("cannot serve --rep TYPE=- lazily (stdin can be read only once)") }
    }

    private var stdinReaders: Int {
        representations.filter { spec in
            Self.typeSeparator(in: spec).map { spec[spec.index(after: $0)...] == "-" } ?? false
        }.count
    }

    /// The items with their bytes read now, or, when `streaming`, input over `Input.chunkSize`
    /// while it is sent (such items can be sent once).
    func eagerItems(registry: TypeRegistry, streaming: Bool) throws(CLIError) -> [ItemProvider] {
        let explicitType = try type.map { word throws(CLIError) in try TypeArguments.copyType(word, registry: registry) }
        if !representations.isEmpty {
            return [try representationItem(registry: registry, streaming: streaming)]
        }
        if files.isEmpty {
            return [try Self.stdinItem(type: explicitType, streaming: streaming) { registry.sniff(prefix: $0, isComplete: $1, filename: nil) }]
        }
        return try Self.fileItems(files, type: explicitType, registry: registry, streaming: streaming)
    }

    /// One item per file in `files`, of `type` or the type sniffed from each file's name and
    /// first bytes (the quick path's `pb copy FILE…` too).
    static func fileItems(_ files: [String], type: TypeIdentifier?, registry: TypeRegistry, streaming: Bool) throws(CLIError) -> [ItemProvider] {
        var items: [ItemProvider] = []
        for file in files {
            let bytes = try Input.openFile(file)
            let name = Self.basename(file)
            var item = ItemProvider(suggestedName: name)
            try Self.register(bytes, in: &item, type: type, streaming: streaming) { registry.sniff(prefix: $0, isComplete: $1, filename: name) }
            items.append(item)
        }
        return items
    }

    /// Registers `bytes` in `item` as a representation of `type`, else of the type `sniff` names
    /// from its first bytes: small input as chunks, larger (when `streaming`) as a stream read
    /// while it is sent.
    private static func register(
        _ bytes: Input.Bytes, in item: inout ItemProvider, type: TypeIdentifier?, streaming: Bool,
        sniff: (_ prefix: [UInt8], _ isComplete: Bool) -> TypeIdentifier
    ) throws(CLIError) {
        switch bytes {
        case .stream(let stream, let prefix) where streaming:
            item.registerData(stream, for: type ?? sniff(prefix, false))
        case .whole, .stream:
            let chunks = try Input.whole(bytes)
            item.registerData(chunks: chunks.map(ByteChunk.init), for: type ?? sniffed(chunks, sniff))
        }
    }

    /// One item of all of stdin, of `type`, else of the type `sniff` names from its first bytes
    /// (and whether they are all of it).
    static func stdinItem(
        type: TypeIdentifier?, streaming: Bool, sniff: (_ prefix: [UInt8], _ isComplete: Bool) -> TypeIdentifier
    ) throws(CLIError) -> ItemProvider {
        var item = ItemProvider()
        try register(try Input.standardInput(), in: &item, type: type, streaming: streaming, sniff: sniff)
        return item
    }

    /// The items with their files read only when a destination loads them (through `serving`);
    /// `--rep TYPE=TEXT` representations are sent now.
    func lazyItems(registry: TypeRegistry, serving: LazyServing) throws(CLIError) -> [ItemProvider] {
        let explicitType = try type.map { word throws(CLIError) in try TypeArguments.copyType(word, registry: registry) }
        if !representations.isEmpty {
            return [try representationItem(registry: registry, lazy: serving)]
        }
        var items: [ItemProvider] = []
        for file in files {
            let (size, prefix) = try Input.peekFile(file, count: 4096)
            let name = Self.basename(file)
            let type = explicitType ?? registry.sniff(prefix: prefix, isComplete: prefix.count == size, filename: name)
            var item = ItemProvider(suggestedName: name)
            serving.register(file, type: type, size: size, in: &item)
            items.append(item)
        }
        return items
    }

    private func representationItem(registry: TypeRegistry, streaming: Bool = false, lazy: LazyServing? = nil) throws(CLIError) -> ItemProvider {
        var item = ItemProvider()
        for spec in representations {
            guard let equals = Self.typeSeparator(in: spec) else {
                throw .usage("--rep '\(spec)' is not TYPE=@FILE, TYPE=- or TYPE=TEXT")
            }
            let type = try TypeArguments.copyType(String(spec[..<equals]), registry: registry)
            if item.registeredTypes.contains(type) { throw .usage("--rep lists \(type) twice") }
            let source = spec[spec.index(after: equals)...]
            if source == "-" {
                try Self.register(try Input.standardInput(), in: &item, type: type, streaming: streaming) { _, _ in type }
            } else if source.hasPrefix("@") {
                let path = String(source.dropFirst())
                if item.suggestedName == nil { item.suggestedName = Self.basename(path) }
                if let lazy {
                    let (size, _) = try Input.peekFile(path, count: 0)
                    lazy.register(path, type: type, size: size, in: &item)
                } else {
                    try Self.register(try Input.openFile(path), in: &item, type: type, streaming: streaming) { _, _ in type }
                }
            } else {
                item.registerData(Array(source.utf8), for: type)
            }
        }
        return item
    }

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

    /// The type `sniff` names from the first bytes of `chunks` (and whether they are all of them).
    private static func sniffed(_ chunks: [ByteBuffer], _ sniff: (_ prefix: [UInt8], _ isComplete: Bool) -> TypeIdentifier) -> TypeIdentifier {
        let total = chunks.reduce(0) { $0 + $1.readableBytes }
        let prefix = Input.prefix(of: chunks, count: 4096)
        return sniff(prefix, prefix.count == total)
    }
}

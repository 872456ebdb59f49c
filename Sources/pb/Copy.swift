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
            """
    )

    @OptionGroup var options: PasteboardOptions

    @Option(name: [.customShort("t"), .customLong("type")],
            help: ArgumentHelp("The type of the data: a type identifier or a MIME type.", valueName: "type"))
    var type: String?

    @Option(name: .customLong("rep"), parsing: .singleValue,
            help: ArgumentHelp("A representation of one item: TYPE=@FILE, TYPE=- (stdin) or TYPE=TEXT. Repeat, best first.", valueName: "type=source"))
    var representations: [String] = []

    @Argument(help: ArgumentHelp("Files to copy, one item each (default: stdin).", valueName: "file"))
    var files: [String] = []

    func validate() throws {
        if !representations.isEmpty && !files.isEmpty { throw ValidationError("give either --rep or FILE arguments, not both") }
        if !representations.isEmpty && type != nil { throw ValidationError("-t does not apply to --rep; put the type in each --rep") }
        let stdinReaders = representations.filter { spec in
            Self.typeSeparator(in: spec).map { spec[spec.index(after: $0)...] == "-" } ?? false
        }
        if stdinReaders.count > 1 { throw ValidationError("only one --rep may read stdin") }
    }

    func run() async throws {
        let registry = TypeArguments.registry().registry
        let items = try buildItems(registry: registry)
        let changeCount = try await options.withPasteboard { pasteboard in
            try await pasteboard.setItems(items)
        }
        _ = changeCount
    }

    private func buildItems(registry: TypeRegistry) throws(CLIError) -> [WriteItem] {
        let explicitType = try type.map { word throws(CLIError) in try TypeArguments.copyType(word, registry: registry) }
        if !representations.isEmpty {
            return [try representationItem(registry: registry)]
        }
        if files.isEmpty {
            let chunks = try Input.readAll(fd: 0, describe: "stdin")
            return [WriteItem(representations: [.init(type: explicitType ?? sniff(chunks, filename: nil, registry), chunks: chunks)])]
        }
        var items: [WriteItem] = []
        for file in files {
            let chunks = try Input.readFile(file)
            let name = file.split(separator: "/").last.map(String.init)
            items.append(WriteItem(
                representations: [.init(type: explicitType ?? sniff(chunks, filename: name, registry), chunks: chunks)],
                suggestedName: name
            ))
        }
        return items
    }

    private func representationItem(registry: TypeRegistry) throws(CLIError) -> WriteItem {
        var result: [WriteItem.Representation] = []
        var suggestedName: String?
        for spec in representations {
            guard let equals = Self.typeSeparator(in: spec) else {
                throw .usage("--rep '\(spec)' is not TYPE=@FILE, TYPE=- or TYPE=TEXT")
            }
            let type = try TypeArguments.copyType(String(spec[..<equals]), registry: registry)
            if result.contains(where: { $0.type == type }) { throw .usage("--rep lists \(type) twice") }
            let source = spec[spec.index(after: equals)...]
            let chunks: [ByteBuffer]
            if source == "-" {
                chunks = try Input.readAll(fd: 0, describe: "stdin")
            } else if source.hasPrefix("@") {
                let path = String(source.dropFirst())
                chunks = try Input.readFile(path)
                if suggestedName == nil { suggestedName = path.split(separator: "/").last.map(String.init) }
            } else {
                chunks = [ByteBuffer(string: String(source))]
            }
            result.append(.init(type: type, chunks: chunks))
        }
        return WriteItem(representations: result, suggestedName: suggestedName)
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

    private func sniff(_ chunks: [ByteBuffer], filename: String?, _ registry: TypeRegistry) -> TypeIdentifier {
        let total = chunks.reduce(0) { $0 + $1.readableBytes }
        let prefix = Input.prefix(of: chunks, count: 4096)
        return registry.sniff(prefix: prefix, isComplete: prefix.count == total, filename: filename)
    }
}

#if canImport(Glibc)
import Glibc
#endif
import NIOCore
import Pasteboard
import PasteboardCLI
import PasteboardSystem
import PasteboardTypes

/// What a compatibility mode copies: stdin, files one after the other (xclip), or words given
/// as arguments (wl-copy), with the originals' trimming of one trailing newline.
///
/// Every input streams as `pb copy`'s does: the first `Input.chunkSize` bytes are read ahead
/// (to sniff the type, and so a small copy is sent whole), the rest while it is sent, so a
/// mode holds a frame's worth of a large input, never all of it. Trimming holds back only the
/// last byte (see `TrailingNewlineTrimmer`), and `xclip -f` prints what passes (`OutputTee`).
enum CopyInput {
    /// stdin.
    case standardInput
    /// These files' bytes, concatenated (xclip copies its FILE arguments as one selection).
    case files([String])
    /// These bytes (wl-copy's text arguments joined with spaces).
    case bytes([UInt8])

    /// How the bytes change on their way to the pasteboard.
    struct Shaping {
        /// One trailing newline is left out (`xclip -rmlastnl`, `wl-copy -n`).
        var trimNewline = false
        /// What passes is also written to stdout (`xclip -f`).
        var echo = false
        /// Bytes that come before the input (`xsel -a`: the selection's text now).
        var prepended: [ByteBuffer] = []
    }

    /// The item to copy, of `type`, else of the type `sniff` names from its first bytes (by
    /// default as `pb copy` sniffs stdin); streamed when larger than what is read ahead.
    func item(type: TypeIdentifier?, shaping: Shaping = Shaping(), sensitive: Bool = false,
              sniff: (_ prefix: [UInt8], _ isComplete: Bool) -> TypeIdentifier = Self.sniffedType) throws(CLIError) -> ItemProvider {
        let source = try self.source(shaping)
        var head: [ByteBuffer] = []
        var total = 0
        var ended = false
        while total < Input.chunkSize {
            let chunk = try Self.read(source, upTo: Input.chunkSize - total)
            if chunk.readableBytes == 0 { ended = true; break }
            head.append(chunk)
            total += chunk.readableBytes
        }
        var item = ItemProvider(sensitive: sensitive)
        let prefix = Input.prefix(of: head, count: 4096)
        if ended {
            item.registerData(chunks: head.map(ByteChunk.init), for: type ?? sniff(prefix, true))
        } else {
            item.registerData(DataStream(source: ChainedSource([ChunkSource(head), source]), name: description), for: type ?? sniff(prefix, false))
        }
        return item
    }

    /// All the bytes, read now (paste-once and paste-N keep them in their own process, as the
    /// originals do).
    func chunks(_ shaping: Shaping = Shaping()) throws(CLIError) -> [ByteBuffer] {
        let source = try self.source(shaping)
        var chunks: [ByteBuffer] = []
        while true {
            let chunk = try Self.read(source, upTo: Input.chunkSize)
            if chunk.readableBytes == 0 { return chunks }
            chunks.append(chunk)
        }
    }

    /// The input as one source, shaped: every file opened now, so a missing one fails before
    /// anything is copied, as in xclip.
    private func source(_ shaping: Shaping) throws(CLIError) -> any DataStreamSource {
        var sources: [any DataStreamSource] = shaping.prepended.isEmpty ? [] : [ChunkSource(shaping.prepended)]
        switch self {
        case .standardInput:
            let fd = dup(0)
            guard fd >= 0 else { throw .failure("cannot read stdin: \(SystemError.current)") }
            sources.append(try Self.opened { () throws(PasteboardError) in try DataStream(descriptor: fd, prefix: [], name: "stdin") })
        case .files(let paths):
            for path in paths { sources.append(try Self.opened { try DataStream(contentsOfFile: path) }) }
        case .bytes(let given):
            sources.append(ChunkSource([ByteBuffer(bytes: given)]))
        }
        var source: any DataStreamSource = sources.count == 1 ? sources[0] : ChainedSource(sources)
        if shaping.trimNewline { source = TrailingNewlineTrimmer(source) }
        if shaping.echo { source = OutputTee(source, to: 1) }
        return source
    }

    /// The input's name in errors.
    private var description: String {
        switch self {
        case .standardInput: "stdin"
        case .files(let paths): paths.count == 1 ? paths[0] : "the files"
        case .bytes: "the text"
        }
    }

    private static func opened(_ open: () throws -> DataStream) throws(CLIError) -> DataStream {
        do { return try open() } catch { throw .failure(ErrorMessage.text(for: error)) }
    }

    private static func read(_ source: any DataStreamSource, upTo count: Int) throws(CLIError) -> ByteBuffer {
        do { return try source.read(upTo: count) } catch { throw .failure(ErrorMessage.text(for: error)) }
    }

    /// The type `pb copy` would give bytes that start with `prefix` (their first 4 KiB), all of
    /// them when `isComplete`.
    static func sniffedType(_ prefix: [UInt8], _ isComplete: Bool) -> TypeIdentifier {
        TypeRegistry.sniffWithProcessEnvironment(prefix: prefix.prefix(4096), isComplete: isComplete)
    }

    /// The type `pb copy` would give `chunks`.
    static func sniffedType(_ chunks: [ByteBuffer]) -> TypeIdentifier {
        let prefix = Input.prefix(of: chunks, count: 4096)
        return sniffedType(prefix, prefix.count == chunks.reduce(0) { $0 + $1.readableBytes })
    }
}

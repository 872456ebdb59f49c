import NIOCore
import Pasteboard
import PasteboardCLI
import PasteboardTypes

/// What a compatibility mode copies: stdin, files one after the other (xclip), or words given
/// as arguments (wl-copy), with the originals' trimming of one trailing newline.
enum CopyInput {
    /// stdin.
    case standardInput
    /// These files' bytes, concatenated (xclip copies its FILE arguments as one selection).
    case files([String])
    /// These bytes (wl-copy's text arguments joined with spaces).
    case bytes([UInt8])

    /// All the bytes, one trailing newline removed when `trimNewline`. Read whole: the modes that
    /// trim or repeat the data need all of it (plain copies of stdin stream instead: `item`).
    func read(trimNewline: Bool) throws(CLIError) -> [UInt8] {
        var bytes: [UInt8]
        switch self {
        case .standardInput:
            bytes = Self.flatten(try Input.whole(try Input.standardInput()))
        case .files(let paths):
            bytes = []
            for path in paths { bytes += Self.flatten(try Input.whole(try Input.openFile(path))) }
        case .bytes(let given):
            bytes = given
        }
        if trimNewline, bytes.last == UInt8(ascii: "\n") { bytes.removeLast() }
        return bytes
    }

    /// The item to copy: of `type`, else of the type sniffed from the bytes as `pb copy` sniffs.
    /// Untrimmed stdin streams as `pb copy` streams it, so a large copy stays out of memory.
    func item(type: TypeIdentifier?, trimNewline: Bool, sensitive: Bool) throws(CLIError) -> ItemProvider {
        var item: ItemProvider
        if case .standardInput = self, !trimNewline {
            item = try ItemArguments.stdinItem(type: type, streaming: true, sniff: TypeRegistry.sniffWithProcessEnvironment)
        } else {
            let bytes = try read(trimNewline: trimNewline)
            item = Self.item(bytes, type: type)
        }
        if sensitive { item.isSensitive = true }
        return item
    }

    /// An item of `bytes`, of `type` or the sniffed one.
    static func item(_ bytes: [UInt8], type: TypeIdentifier?) -> ItemProvider {
        var item = ItemProvider()
        item.registerData(bytes, for: type ?? sniffedType(bytes))
        return item
    }

    /// The type `pb copy` would give `bytes` (sniffed from their first 4 KiB).
    static func sniffedType(_ bytes: [UInt8]) -> TypeIdentifier {
        TypeRegistry.sniffWithProcessEnvironment(prefix: bytes.prefix(4096), isComplete: bytes.count <= 4096)
    }

    private static func flatten(_ chunks: [ByteBuffer]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(chunks.reduce(0) { $0 + $1.readableBytes })
        for chunk in chunks { bytes.append(contentsOf: chunk.readableBytesView) }
        return bytes
    }
}

#if canImport(Glibc)
import Glibc
#endif
import NIOCore
import Pasteboard
import PasteboardCLI

/// A source whose bytes are also written to a descriptor as they pass (`xclip -f`: the copied
/// text to stdout as well), so the filter streams like the copy. A write that fails fails the
/// read, and with it the copy: nothing is copied that was not printed.
final class OutputTee: DataStreamSource {
    private let source: any DataStreamSource
    private let descriptor: Int32

    init(_ source: any DataStreamSource, to descriptor: Int32) {
        self.source = source
        self.descriptor = descriptor
    }

    func read(upTo count: Int) throws(PasteboardError) -> ByteBuffer {
        let chunk = try source.read(upTo: count)
        do {
            try Output.write(chunk, to: descriptor)
        } catch {
            throw PasteboardError.io(error.message.isEmpty ? "cannot write to the output (closed)" : error.message)
        }
        return chunk
    }
}

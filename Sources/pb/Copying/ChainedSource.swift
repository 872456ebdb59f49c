import NIOCore
import Pasteboard
import Synchronization

/// Sources read one after the other as one: xclip's FILE arguments, which it copies as one
/// selection; what was read ahead, then the rest of its input.
final class ChainedSource: DataStreamSource {
    private let sources: [any DataStreamSource]
    /// The source being read; `sources.count` once all ended.
    private let current = Mutex(0)

    init(_ sources: [any DataStreamSource]) {
        self.sources = sources
    }

    func read(upTo count: Int) throws(PasteboardError) -> ByteBuffer {
        try current.withLock { current throws(PasteboardError) -> ByteBuffer in
            while current < sources.count {
                let chunk = try sources[current].read(upTo: count)
                if chunk.readableBytes > 0 { return chunk }
                current += 1
            }
            return ByteBuffer()
        }
    }
}

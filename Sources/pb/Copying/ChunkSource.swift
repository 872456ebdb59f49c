import NIOCore
import Pasteboard
import Synchronization

/// Bytes already in memory, read as a stream source: what was read ahead of a stream (to sniff
/// its type), or the text an `xsel -a` appends to.
final class ChunkSource: DataStreamSource {
    private let chunks: Mutex<[ByteBuffer]>

    init(_ chunks: [ByteBuffer]) {
        self.chunks = Mutex(chunks.filter { $0.readableBytes > 0 })
    }

    func read(upTo count: Int) -> ByteBuffer {
        chunks.withLock { chunks in
            guard var first = chunks.first else { return ByteBuffer() }
            let slice = first.readSlice(length: min(count, first.readableBytes))!
            if first.readableBytes == 0 { chunks.removeFirst() } else { chunks[0] = first }
            return slice
        }
    }
}

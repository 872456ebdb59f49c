import NIOCore
import Pasteboard
import Synchronization

/// A source without its last byte when that byte is a newline (`xclip -rmlastnl`, `wl-copy
/// -n`): only the last byte read is held back until more follows, so the input streams
/// instead of being read whole first.
final class TrailingNewlineTrimmer: DataStreamSource {
    private let source: any DataStreamSource
    /// The last byte read and not yet passed on, and whether the source ended.
    private let state = Mutex((held: UInt8?.none, ended: false))

    init(_ source: any DataStreamSource) {
        self.source = source
    }

    func read(upTo count: Int) throws(PasteboardError) -> ByteBuffer {
        try state.withLock { state throws(PasteboardError) -> ByteBuffer in
            while !state.ended {
                let chunk = try source.read(upTo: count)
                guard chunk.readableBytes > 0, let last = chunk.getInteger(at: chunk.writerIndex - 1, as: UInt8.self) else {
                    state.ended = true
                    guard let held = state.held, held != UInt8(ascii: "\n") else { return ByteBuffer() }
                    return ByteBuffer(bytes: [held])
                }
                // The held byte, then all of this chunk but its last byte, which is held instead:
                // at most `count` bytes, as the chunk was.
                var passed = ByteBufferAllocator().buffer(capacity: chunk.readableBytes)
                if let held = state.held { passed.writeInteger(held) }
                passed.writeImmutableBuffer(chunk.getSlice(at: chunk.readerIndex, length: chunk.readableBytes - 1)!)
                state.held = last
                if passed.readableBytes > 0 { return passed }
            }
            return ByteBuffer()
        }
    }
}

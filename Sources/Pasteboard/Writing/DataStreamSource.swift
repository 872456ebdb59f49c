package import NIOCore

/// Where a `DataStream` reads its bytes when they do not come straight from one descriptor:
/// inputs joined one after another, or changed as they pass (pb's compatibility modes copy
/// xclip's files as one selection and hold back a last newline without reading the input
/// whole). A `DataStream` is one too, so sources compose.
package protocol DataStreamSource: Sendable {
    /// The next at most `count` bytes (`count` is more than 0); an empty buffer at the end.
    /// Throws when the input fails, which abandons the write it feeds. May block.
    func read(upTo count: Int) throws(PasteboardError) -> ByteBuffer
}

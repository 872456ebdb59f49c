package import NIOCore

/// A run of bytes a streaming load delivers, in order. It shares the storage the bytes were
/// received into (no copy is made to hand it over), and may be kept beyond the closure it was
/// handed to; `Array(chunk)` or `append(contentsOf: chunk)` copies it in one move.
public struct ByteChunk: RandomAccessCollection, Sendable, Hashable {
    /// The received bytes (readable part), for the package's own tools that write them on unchanged.
    package let buffer: ByteBuffer

    package init(_ buffer: ByteBuffer) {
        self.buffer = buffer
    }

    /// A chunk holding a copy of `bytes`.
    public init(_ bytes: some Sequence<UInt8>) {
        self.buffer = ByteBuffer(bytes: bytes)
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { buffer.readableBytes }
    public var count: Int { buffer.readableBytes }

    public subscript(position: Int) -> UInt8 {
        precondition(position >= 0 && position < buffer.readableBytes, "index \(position) out of range 0..<\(buffer.readableBytes)")
        return buffer.getInteger(at: buffer.readerIndex + position, as: UInt8.self)!
    }

    /// Calls `body` with the bytes in place, valid only during the call.
    public func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try buffer.withUnsafeReadableBytes(body)
    }

    public func withContiguousStorageIfAvailable<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result? {
        try buffer.withUnsafeReadableBytes { raw in try body(raw.bindMemory(to: UInt8.self)) }
    }
}

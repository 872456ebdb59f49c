/// Bytes held somewhere else that a request can carry without copying them: an array, or
/// storage of the caller's (the bridge hands over the buffers its loads from the daemon were
/// received into).
///
/// Why: a selection export moves hundreds of MiB through the bridge, and every copy of every
/// byte on the way is a measurable share of its cycles. A request's data is written to the
/// socket from where it lies, gathered by one `sendmsg`.
public protocol ByteStorage: Sendable {
    var count: Int { get }
    /// Calls `body` with the bytes in place, valid only during the call.
    func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result
}

extension Array: ByteStorage where Element == UInt8 {}

/// A range of some `ByteStorage`: one piece of a request's data. Splitting a run (a chunk
/// that ends inside a written piece) makes two runs of the same storage, not a copy.
public struct ByteRun: Sendable {
    private let storage: any ByteStorage
    private let range: Range<Int>

    /// The whole of `bytes`.
    public init(_ bytes: some ByteStorage) {
        storage = bytes
        range = 0..<bytes.count
    }

    private init(storage: any ByteStorage, range: Range<Int>) {
        self.storage = storage
        self.range = range
    }

    public var count: Int { range.count }

    /// A run of no bytes, holding no storage.
    static let empty = ByteRun([UInt8]())

    /// The first `count` bytes and the rest, both sharing this run's storage.
    func split(at count: Int) -> (ByteRun, ByteRun) {
        precondition((0...self.count).contains(count), "split at \(count) of a run of \(self.count)")
        let middle = range.lowerBound + count
        return (ByteRun(storage: storage, range: range.lowerBound..<middle), ByteRun(storage: storage, range: middle..<range.upperBound))
    }

    /// Calls `body` with this run's bytes in place, valid only during the call.
    public func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try storage.withUnsafeBytes { whole in try body(UnsafeRawBufferPointer(rebasing: whole[range])) }
    }
}

extension Array where Element == ByteRun {
    /// The bytes of all runs, joined (a copy: for tests, checks and small data).
    public var joined: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(byteCount)
        for run in self { run.withUnsafeBytes { bytes.append(contentsOf: $0) } }
        return bytes
    }

    /// The bytes of all runs.
    public var byteCount: Int { reduce(0) { $0 + $1.count } }

    /// Calls `body` with every run's bytes in place at once (valid only during the call), for a
    /// gathered write.
    func withUnsafeBuffers<Result>(_ body: ([UnsafeRawBufferPointer]) throws -> Result) rethrows -> Result {
        var buffers: [UnsafeRawBufferPointer] = []
        buffers.reserveCapacity(count)
        return try Self.nest(self[...], into: &buffers, body)
    }

    private static func nest<Result>(
        _ runs: ArraySlice<ByteRun>, into buffers: inout [UnsafeRawBufferPointer], _ body: ([UnsafeRawBufferPointer]) throws -> Result
    ) rethrows -> Result {
        guard let first = runs.first else { return try body(buffers) }
        return try first.withUnsafeBytes { bytes in
            buffers.append(bytes)
            return try nest(runs.dropFirst(), into: &buffers, body)
        }
    }
}

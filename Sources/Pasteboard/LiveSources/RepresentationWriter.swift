#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
package import NIOCore
package import PasteboardProtocol
import PasteboardSystem
import PasteboardTypes
import Synchronization

/// What a load handler writes a promised representation's bytes to. Each `write` waits for
/// the daemon's flow-control credit, so a handler producing faster than the destination reads
/// is held back instead of filling memory. Throws `CancellationError` once the load is cancelled.
///
/// When the daemon hands the load off, the bytes go into a socket the destination reads
/// directly (its buffer is the window), and `writeFile(at:)` sends the file inside the kernel.
public final class RepresentationWriter: @unchecked Sendable {
    /// What the daemon asked for: the type, the pasteboard and item, and whether it captures the
    /// data because this process relinquishes its promises.
    package let request: ProduceRequest
    private let connection: PasteboardConnection
    private let id: UInt32
    private let window: SendWindow
    private let written = Atomic<Int>(0)
    private let sizeDeclared = Atomic<Bool>(false)
    /// The handed-off socket; nil when the bytes go in data frames. Used by the one handler task
    /// only (hence `@unchecked Sendable`), and closed by `finish` or when the writer goes away.
    private let handoff: HandoffStream?
    /// Reports the bytes sent into a handed-off socket (the daemon cannot see them).
    private let progress: (@Sendable (LoadProgress) -> Void)?
    private let throttle: Mutex<ProgressThrottle>

    init(request: ProduceRequest, connection: PasteboardConnection, id: UInt32, window: SendWindow,
         handoff: HandoffStream? = nil, progress: (@Sendable (LoadProgress) -> Void)? = nil, size: Int? = nil) {
        self.request = request
        self.connection = connection
        self.id = id
        self.window = window
        self.handoff = handoff
        self.progress = progress
        self.throttle = Mutex(ProgressThrottle(total: size))
    }

    /// True when the bytes go straight into a socket the destination reads.
    public var isHandedOff: Bool { handoff != nil }

    /// The representation's type.
    public var type: TypeIdentifier { TypeIdentifier(rawValue: request.type) }

    /// The pasteboard holding the item; nil for an item of a drag session.
    public var pasteboard: String? { request.pasteboard }

    /// The drag session holding the item, when it is not on a pasteboard.
    public var session: Int? { request.session }

    /// The item's index on the pasteboard or in the session.
    public var item: Int { request.item }

    /// True when the daemon captures the bytes to keep them after this process lets go of its
    /// promises (it quits, or `relinquish`), rather than for a destination loading now: a handler
    /// may, say, skip an expensive rendering nobody waits for.
    public var isCapture: Bool { request.capture ?? false }

    /// The loading process's id, when a destination loads (informational: for a log line).
    public var destinationPID: Int32? { request.destinationPID }

    /// Bytes written so far.
    public var bytesWritten: Int { written.load(ordering: .relaxed) }

    /// Declares the total byte count, before the first byte is written; the destination sees it as the load's total.
    public func declareSize(_ bytes: Int) async throws {
        precondition(bytes >= 0, "a size cannot be negative")
        guard bytesWritten == 0, !sizeDeclared.exchange(true, ordering: .relaxed) else { return }
        if handoff != nil {
            throttle.withLock { $0.total = bytes }  // the count goes to the daemon at the end
            return
        }
        try await connection.send(.size(SizeDeclaration(bytes: bytes)), on: id)
    }

    /// Writes the next chunk (received from a load, or made with `ByteChunk(bytes)`).
    public func write(_ chunk: ByteChunk) async throws {
        try await write(chunk.buffer)
    }

    /// Writes the next buffer as it is, for the package's own tools.
    package func write(_ chunk: ByteBuffer) async throws {
        if let handoff {
            try Task.checkCancellation()
            try await handoff.write(chunk)
            count(chunk.readableBytes)
            return
        }
        var remaining = chunk
        let limit = connection.chunkLimit
        while remaining.readableBytes > 0 {
            try Task.checkCancellation()
            let allowed = try await window.acquire(upTo: min(limit, remaining.readableBytes))
            try await connection.sendData(remaining.readSlice(length: allowed)!, on: id, end: false)
            written.add(allowed, ordering: .relaxed)
        }
    }

    /// Writes the next bytes.
    public func write(contentsOf bytes: some Collection<UInt8>) async throws {
        try await write(ByteBuffer(bytes: bytes))
    }

    /// Streams the file at `path`, a chunk at a time, declaring its size first.
    ///
    /// The calling task never blocks on the file: it is opened non-blocking, a regular file's
    /// chunks are read on a thread of their own (`BlockingWork`), and a FIFO or device is read
    /// when poll, on such a thread too (`BlockingWait`), says it has bytes — so a FIFO nobody
    /// writes holds no thread of the caller's, and cancelling the load, or a handed-off
    /// destination leaving, ends the wait at once (`CancellationError`).
    public func writeFile(at path: String) async throws {
        let (fd, size) = try await BlockingWork.run { () throws(PasteboardError) -> (Int32, Int?) in
            let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
            guard fd >= 0 else { throw PasteboardError.io("cannot read \(path): \(SystemError.current)") }
            var info = stat()
            let isRegular = fstat(fd, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
            return (fd, isRegular ? Int(info.st_size) : nil)
        }
        defer { close(fd) }
        if let size { try await declareSize(size) }
        if let handoff, size != nil {  // sendfile reads regular files only; a FIFO is read below
            try await handoff.send(file: fd, path: path) { count($0) }
            return
        }
        let limit = connection.chunkLimit
        // A FIFO's reader waits for bytes before each read: with no writer yet, a read would say
        // end of file at once (O_NONBLOCK), where poll waits for a writer to write or leave.
        let readiness = size == nil ? BlockingWait() : nil
        if size == nil, readiness == nil { throw PasteboardError.io("cannot read \(path): no descriptor left to wait with") }
        while true {
            if let readiness {
                // Handed off, the daemon does not see the destination leave: its socket's hang-up
                // ends the wait as cancellation does.
                switch await readiness.wait(for: fd, events: Int16(POLLIN), orHangUpOf: handoff?.descriptor) {
                case .ready, .timedOut: break
                case .cancelled, .hungUp: throw CancellationError()
                }
            } else {
                try Task.checkCancellation()
            }
            let read = await BlockingWork.run { () -> (ByteBuffer, Int32) in
                var buffer = ByteBufferAllocator().buffer(capacity: limit)
                var failure: Int32 = 0
                buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: limit) { pointer in
                    while true {
                        let got = Glibc.read(fd, pointer.baseAddress, limit)
                        if got >= 0 { return got }
                        if errno != EINTR { failure = errno; return 0 }
                    }
                }
                return (buffer, failure)
            }
            switch read.1 {
            case 0: break
            case EAGAIN: continue  // a FIFO whose writer has nothing yet
            default: throw PasteboardError.io("cannot read \(path): \(SystemError.describe(read.1))")
            }
            if read.0.readableBytes == 0 { return }
            try await write(read.0)
        }
    }

    /// Ends the stream: closes a handed-off socket and tells the daemon how many bytes went
    /// into it, then the END frame.
    func finish() async throws {
        if let handoff {
            handoff.close()
            let written = bytesWritten
            progress?(LoadProgress(completed: written, total: throttle.withLock { $0.total } ?? written))
            try await connection.send(.size(SizeDeclaration(bytes: bytesWritten)), on: id)
        }
        try await connection.sendData(ByteBuffer(), on: id, end: true)
    }

    /// Counts bytes sent into a handed-off socket and reports progress now and then.
    private func count(_ bytes: Int) {
        let total = written.add(bytes, ordering: .relaxed).newValue
        guard let progress else { return }
        // The final report is `finish`'s.
        let report = throttle.withLock { throttle in
            total != throttle.total && throttle.shouldReport(total) ? throttle.report(total) : nil
        }
        if let report { progress(LoadProgress(completed: report.completed, total: report.total)) }
    }
}

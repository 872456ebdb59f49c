#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CPasteboardSystem
package import NIOCore
package import PasteboardProtocol
import PasteboardSystem
import PasteboardTypes

/// A connection to `pasteboardd` driven by blocking calls on the calling thread: no event
/// loop, no tasks, one request at a time.
///
/// It is for short-lived command-line processes, `pb paste` and `pb copy` in a shell loop,
/// where starting NIO's event-loop thread and the concurrency runtime's worker threads costs
/// more than the request itself. It speaks the same protocol as `PasteboardConnection`, with
/// flow control, progress and hand-off, but offers only loading a representation and writing
/// items whose bytes are at hand (data and file representations). Promises, watching, history
/// and drag sessions need `PasteboardConnection`.
///
/// It never starts the daemon: when nothing listens, `init` throws
/// `PasteboardError.daemonUnreachable` and the caller may fall back to
/// `PasteboardConnection.withConnection`, which does.
public final class BlockingConnection {
    /// What the daemon said in its `welcome`, read when first needed: `hello` goes out with the
    /// first request, in one write, so a `pb paste` waits for the daemon once, not twice.
    /// Throws what `init` threw before (see there) when the handshake fails.
    package var welcome: Welcome {
        get throws(PasteboardError) { try completeHandshake() }
    }
    /// The `welcome`, once it has arrived (`isWelcomed`). Not an optional: a `Welcome?`'s
    /// metadata is made at run time, by name, which costs a short-lived `pb` more than the
    /// flag does.
    private var handshakeWelcome = Welcome(daemon: "", pid: 0, maxFrameLength: ProtocolLimits.minimumMaxFrameLength, window: ProtocolLimits.minimumWindow)
    private var isWelcomed = false
    private let socket: Int32
    private let socketPath: String
    /// Bytes read from the socket and not yet decoded into frames.
    private var inbound = ByteBufferAllocator().buffer(capacity: 64 << 10)
    private var outbound = ByteBufferAllocator().buffer(capacity: 4 << 10)
    private var nextRequestID: UInt32 = 1
    /// Whether the hand-off socket is attached (see `HandoffAttachment`).
    private var handoff = HandoffAttachment.untried

    /// Connects to the daemon at `socketPath` and queues the handshake as `clientName`: `hello`
    /// goes out with the first request, and the daemon's answer is read after it.
    ///
    /// Throws `PasteboardError.daemonUnreachable` when the socket cannot be connected to, and
    /// `PasteboardError.untrustedSocket` when it belongs to another user (its peer's uid, or the
    /// directory of a derived path; see `SocketTrust`), having sent nothing. A daemon that closes
    /// the connection before it answers `hello` (it is shutting down) makes the first request
    /// throw `daemonUnreachable` too, having done nothing; one that refuses the `hello` makes it
    /// throw the daemon's error.
    public init(
        socketPath: String = PasteboardConnection.defaultSocketPath,
        clientName: String
    ) throws {
        try SocketTrust.checkDirectory(ofSocket: socketPath)
        let fd = pasteboard_unix_socket(socketPath, -1)
        guard fd >= 0 else {
            throw PasteboardError.daemonUnreachable(socketPath: socketPath, reason: SystemError.current)
        }
        // `hello` is only queued here, and goes out with the first request: check the peer first.
        do {
            try SocketTrust.checkPeer(descriptor: fd, socketPath: socketPath)
        } catch {
            close(fd)
            throw error
        }
        socket = fd
        self.socketPath = socketPath
        // The daemon may close a connection whose data we no longer want: that is an error to
        // report, not a reason to die of SIGPIPE.
        pasteboard_ignore_sigpipe()
        queue(DaemonHandshake.hello(client: clientName))
    }

    /// The window and frame length the daemon has announced, or, before its `welcome`, those
    /// every daemon allows.
    private var limits: (window: Int, maxFrameLength: Int) {
        (handshakeWelcome.window, handshakeWelcome.maxFrameLength)
    }

    /// The daemon's `welcome`, reading it (after sending what is queued, `hello` included) when
    /// it has not arrived yet.
    @discardableResult
    private func completeHandshake() throws(PasteboardError) -> Welcome {
        if isWelcomed { return handshakeWelcome }
        // A daemon that refuses us (over its connection limit) may answer and close before our
        // hello is written: its error frame, if it arrived, says more than the failed write.
        var writeFailure: PasteboardError?
        do { try writeOutbound() } catch { writeFailure = error }
        let reply: Frame
        do {
            reply = try nextFrame(maxFrameLength: ProtocolLimits.defaultMaxFrameLength, interrupt: nil)
        } catch {
            // Closed without a word: the daemon read nothing of ours (it answers hello before it
            // reads on), so the caller may go to another daemon.
            let reason = switch writeFailure ?? error as? PasteboardError {
            case .connectionLost(let reason)?: reason
            default: "\(writeFailure ?? error)"
            }
            throw PasteboardError.daemonUnreachable(socketPath: socketPath, reason: "it closed the connection before answering hello (\(reason))")
        }
        handshakeWelcome = try DaemonHandshake.welcome(from: reply)
        isWelcomed = true
        return handshakeWelcome
    }

    deinit {
        close(socket)
    }

    // MARK: - Loading

    /// Loads item `item`'s representation best matching `accepting` (UTIs or MIME types, most
    /// preferred first; empty for the item's first representation) from pasteboard `pasteboard`.
    ///
    /// `chunk` is called with the bytes in order; credit is returned to the daemon as each
    /// chunk is consumed, so memory stays bounded. `progress` hears the daemon's progress
    /// reports. When `interrupt` (a descriptor such as a signal pipe) becomes readable, the load
    /// is cancelled at the daemon and `CancellationError` is thrown.
    @discardableResult
    public func load(
        pasteboard: String, item: Int = 0, accepting: [TypeIdentifier],
        interrupt: Int32? = nil,
        progress: (LoadProgress) -> Void = { _ in },
        chunk: (ByteChunk) throws -> Void
    ) throws -> LoadedRepresentation {
        LoadedRepresentation(try loadBuffers(
            pasteboard: pasteboard, item: item, accepting: accepting, interrupt: interrupt, progress: progress
        ) { try chunk(ByteChunk($0)) })
    }

    /// `load(pasteboard:item:accepting:interrupt:progress:chunk:)` in the wire's terms, for the
    /// package's tools that write the received buffers on unchanged.
    /// With `output`, a stored file the daemon hands over is copied into that descriptor inside
    /// the kernel (see `KernelCopy`) instead of through `chunk`.
    @discardableResult
    package func loadBuffers(
        pasteboard: String, item: Int = 0, accepting: [TypeIdentifier],
        interrupt: Int32? = nil,
        output: Int32? = nil,
        progress: (LoadProgress) -> Void = { _ in },
        header: (RepresentationHeader) throws -> Void = { _ in },
        chunk: (ByteBuffer) throws -> Void
    ) throws -> RepresentationHeader {
        let id = openRequest()
        // Before the welcome the daemon's offer is unknown: a daemon that made none ignores `handoff`.
        let asksHandoff = isWelcomed ? HandoffChannel.mayAsk(handshakeWelcome) : HandoffChannel.isEnabled
        do {
            queue(.message(.read(ReadExchange.request(.pasteboard(pasteboard), item: item, accept: accepting, asksHandoff: asksHandoff)),
                           requestID: id))
            try flush()
            var exchange = ReadExchange(window: try completeHandshake().window)
            while true {
                switch try exchange.take(try nextFrame(for: id, interrupt: interrupt), handoff: handoff.channel) {
                case .attachHandoff:
                    handoff.attach(offeredBy: handshakeWelcome)
                case .representation(let value):
                    try header(value)  // before any byte: a throw cancels the load
                case .handedOff(let value, let channel):
                    try header(value)
                    exchange.handedOff(try receiveHandedOff(
                        try channel.descriptor(for: id), id: id, total: value.size, interrupt: interrupt, output: output,
                        progress: progress, chunk: chunk))
                case .progress(let report):
                    progress(report)
                case .data(let bytes, let credit):
                    if let bytes { try chunk(bytes) }
                    if let credit { try send(.credit(Credit(bytes: credit)), on: id) }
                case .finished(let bytes, let value):
                    if let bytes { try chunk(bytes) }
                    return value
                case .ignored:
                    continue
                }
            }
        } catch let error as ProtocolError {
            try? send(.cancel, on: id)
            throw PasteboardError.daemon(error)
        } catch let error as PasteboardError {
            if error.code == nil { try? send(.cancel, on: id) }
            throw error
        } catch {
            try? send(.cancel, on: id)
            throw error
        }
    }

    /// Receives a handed-off transfer through `descriptor` (then closed): copied into `output`
    /// inside the kernel when there is one and it can be (see `KernelCopy`), else read into
    /// `chunk`. Returns the byte count.
    private func receiveHandedOff(
        _ descriptor: Int32, id: UInt32, total: Int?, interrupt: Int32?, output: Int32?,
        progress: (LoadProgress) -> Void, chunk: (ByteBuffer) throws -> Void
    ) throws -> Int {
        let copied: Int?
        do {
            copied = try output.flatMap { output in
                try KernelCopy.copy(descriptor, to: output, total: total, interrupt: interrupt, progress: progress)
            }
        } catch {
            close(descriptor)
            throw error
        }
        if let copied {
            close(descriptor)
            return copied
        }
        return try drain(descriptor, id: id, total: total, interrupt: interrupt, progress: progress, chunk: chunk)  // drain closes it
    }

    /// Reads a handed-off transfer socket to its end into `chunk`; returns the byte count.
    private func drain(
        _ fd: Int32, id: UInt32, total: Int?, interrupt: Int32?,
        progress: (LoadProgress) -> Void, chunk: (ByteBuffer) throws -> Void
    ) throws -> Int {
        defer { close(fd) }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)  // reads here wait (after poll)
        var throttle = ProgressThrottle(total: total)
        var completed = 0
        var buffer = ByteBufferAllocator().buffer(capacity: HandoffStream.chunk)
        while true {
            try waitForHandedOffBytes(fd, id: id, interrupt: interrupt)
            var failure: Int32 = 0
            buffer.clear()
            let count = buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: HandoffStream.chunk) { pointer in
                let result = read(fd, pointer.baseAddress, pointer.count)
                if result < 0 { failure = errno }
                return max(result, 0)
            }
            switch failure {
            case 0: break
            case EINTR, EAGAIN: continue
            default: throw PasteboardError.io("cannot read the handed-off data: \(SystemError.describe(failure))")
            }
            if count == 0 { return completed }
            try chunk(buffer)
            completed += count
            if completed != total, throttle.shouldReport(completed) {
                progress(LoadProgress(completed: completed, total: total))
            }
        }
    }

    // MARK: - Writing

    /// Replaces pasteboard `pasteboard`'s items with `items` and returns its new change count.
    /// Data and stream representations are uploaded under the daemon's flow control (a stream
    /// read a frame at a time, as credit allows); file representations
    /// are read by the daemon when loaded. Promised representations need a
    /// `PasteboardConnection` (something must serve them) and are refused.
    @discardableResult
    public func setItems(_ items: [ItemProvider], on pasteboard: String, expiringAfter expiry: Duration? = nil) throws -> Int {
        let infos = try items.map { item throws(PasteboardError) in
            try ItemUpload.info(for: item) { _, _ throws(PasteboardError) in
                throw PasteboardError.io("a promised representation needs a PasteboardConnection to serve it")
            }
        }
        let id = openRequest()
        // The request and its bytes gather in `outbound` and go out in one write where the credit
        // allows: before waiting for the daemon, and at the end.
        queue(.message(.write(WriteRequest(pasteboard: pasteboard, items: infos, expire: expiry?.protocolSeconds)), requestID: id))
        // The credit left is the window (before the welcome, the least every daemon allows) plus
        // the daemon's grants, less the data bytes sent.
        var granted = 0, sent = 0
        var credit: Int { limits.window.addingSaturating(granted) - sent }
        var limit: Int { ProtocolLimits.dataChunkLimit(maxFrameLength: limits.maxFrameLength) }
        /// Whether the request has gone out: until then the daemon cannot have answered it, and
        /// looking for an answer would cost a system call for nothing.
        var requestSent = false
        /// The daemon's next message on the write other than credit, which is counted; nil
        /// once credit came or, when not `waiting`, no whole frame has arrived. Waiting reads
        /// the welcome first, if it has not come; then, unless `untilAnswer` (all is sent), it
        /// waits no further when the real window leaves credit.
        func answer(waiting: Bool, untilAnswer: Bool = false) throws -> Message? {
            var waiting = waiting
            if waiting {
                try flush()
                requestSent = true
                if !isWelcomed {
                    try completeHandshake()
                    if !untilAnswer { waiting = credit == 0 }  // the real window may leave credit: send on
                }
            }
            while let frame = try waiting ? nextFrame(for: id, interrupt: nil) : arrivedFrame(for: id) {
                guard frame.kind == .message else { continue }
                let message: Message
                do { message = try frame.decodeMessage() } catch { throw PasteboardError.daemon(error) }
                guard case .credit(let grant) = message else { return message }
                // As the protocol has it: a negative grant counts as 0, and the sum saturates.
                granted = granted.addingSaturating(max(0, grant.bytes))
                waiting = false  // take what else has arrived, then send on
            }
            return nil
        }
        // A stream's bytes, once read, cannot be read again: before the first of them, make sure
        // the daemon has answered hello, so `daemonUnreachable` (which lets the caller carry the
        // items over to another connection) is thrown with the streams untouched.
        if items.contains(where: { $0.representations.contains { if case .stream = $0.content { true } else { false } } }) {
            try completeHandshake()
            requestSent = true
        }
        var early: Message?
        upload: for item in items {
            for representation in item.representations {
                switch representation.content {
                case .data(let byteChunks):
                    let chunks = byteChunks.map(\.buffer)
                    let filled = chunks.filter { $0.readableBytes > 0 }
                    if filled.isEmpty { queue(.data(ByteBuffer(), requestID: id, end: true)) }
                    for (index, chunk) in filled.enumerated() {
                        var remaining = chunk
                        while remaining.readableBytes > 0 {
                            // The daemon may refuse at once (a limit, a bad type): its answer ends the upload.
                            if credit == 0 || requestSent, let refusal = try answer(waiting: credit == 0) {
                                early = refusal
                                break upload
                            }
                            guard credit > 0 else { continue }
                            let size = min(limit, credit, remaining.readableBytes)
                            sent += size
                            let slice = remaining.readSlice(length: size)!
                            // The last bytes carry END, where a frame of their own would cost a write.
                            queue(.data(slice, requestID: id, end: index == filled.count - 1 && remaining.readableBytes == 0))
                            if outbound.readableBytes >= limit {
                                try flush()
                                requestSent = true
                            }
                        }
                    }
                case .stream(let stream):
                    // Read only what the credit allows, one frame at a time: memory stays at a frame.
                    do {
                        try stream.claim()
                    } catch {
                        try? send(.cancel, on: id)
                        throw error
                    }
                    while true {
                        if credit == 0 || requestSent, let refusal = try answer(waiting: credit == 0) {
                            early = refusal
                            break upload
                        }
                        guard credit > 0 else { continue }
                        let chunk: ByteBuffer
                        do {
                            chunk = try stream.read(upTo: min(limit, credit))
                        } catch {
                            try? send(.cancel, on: id)  // abandon the write: the pasteboard keeps what it had
                            throw error
                        }
                        sent += chunk.readableBytes
                        queue(.data(chunk, requestID: id, end: chunk.readableBytes == 0))
                        if outbound.readableBytes >= limit {
                            try flush()
                            requestSent = true
                        }
                        if chunk.readableBytes == 0 { break }
                    }
                case .promise, .file:
                    continue
                }
            }
        }
        try flush()
        var reply = early
        while reply == nil { reply = try answer(waiting: true, untilAnswer: true) }
        switch reply! {
        case .ok(let ok): return ok.changeCount ?? 0
        case .error(let error): throw PasteboardError.daemon(error)
        case let other: throw PasteboardConnection.unexpected(other)
        }
    }

    // MARK: - Frames

    func openRequest() -> UInt32 {
        defer { nextRequestID += 1 }
        return nextRequestID
    }

    /// Sends a control message on request `id`.
    private func send(_ message: Message, on id: UInt32) throws(PasteboardError) {
        queue(.message(message, requestID: id))
        try writeOutbound()
    }

    /// Sends what is queued. Before the welcome, a failed write (the daemon refused the `hello`
    /// and closed) throws what the daemon said instead, when it said something.
    func flush() throws(PasteboardError) {
        do {
            try writeOutbound()
        } catch where !isWelcomed {
            try completeHandshake()
            throw error
        }
    }

    /// Adds `frame` to what the next `writeOutbound` sends.
    func queue(_ frame: Frame) {
        FrameCodec.encode(frame, into: &outbound)
    }

    private func writeOutbound() throws(PasteboardError) {
        while outbound.readableBytes > 0 {
            let written = outbound.withUnsafeReadableBytes { write(socket, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                outbound.clear()
                throw PasteboardError.connectionLost(SystemError.current)
            }
            outbound.moveReaderIndex(forwardBy: written)
        }
        outbound.clear()
    }

    /// The next frame for request `id`; frames of other requests (the daemon's notifications)
    /// are skipped. Throws `connectionLost` when the daemon closes the connection.
    func nextFrame(for id: UInt32, interrupt: Int32?) throws -> Frame {
        let maxFrameLength = try completeHandshake().maxFrameLength
        while true {
            let frame = try nextFrame(maxFrameLength: maxFrameLength, interrupt: interrupt)
            if frame.requestID == id { return frame }
            if frame.requestID == 0, frame.kind == .message, case .error(let error)? = try? frame.decodeMessage() {
                throw PasteboardError.daemon(error)
            }
        }
    }

    /// A frame for request `id` that has already arrived, without waiting; nil when there is
    /// none, or when the handshake is not complete (its answer is read when waiting).
    private func arrivedFrame(for id: UInt32) throws -> Frame? {
        guard isWelcomed else { return nil }
        while true {
            if let frame = try decodeFrame(maxFrameLength: handshakeWelcome.maxFrameLength) {
                if frame.requestID == id { return frame }
                continue
            }
            var ready = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 0) > 0 else { return nil }
            try receive()
        }
    }

    private func nextFrame(maxFrameLength: Int, interrupt: Int32?) throws -> Frame {
        while true {
            if let frame = try decodeFrame(maxFrameLength: maxFrameLength) { return frame }
            try waitUntilReadable(socket, interrupt: interrupt)
            try receive()
        }
    }

    private func decodeFrame(maxFrameLength: Int) throws(PasteboardError) -> Frame? {
        do {
            return try FrameCodec.decode(from: &inbound, maxFrameLength: maxFrameLength)
        } catch {
            throw PasteboardError.connectionLost("the daemon sent a bad frame: \(ErrorMessage.text(for: error))")
        }
    }

    /// Reads what the socket has (waiting when it has nothing) into `inbound`.
    private func receive() throws(PasteboardError) {
        inbound.discardReadBytes()
        while true {
            var failure: Int32 = 0
            let count = inbound.writeWithUnsafeMutableBytes(minimumWritableBytes: 64 << 10) { pointer in
                let result = read(socket, pointer.baseAddress, pointer.count)
                if result < 0 { failure = errno }
                return max(result, 0)
            }
            switch failure {
            case 0: break
            case EINTR: continue
            default: throw PasteboardError.connectionLost(SystemError.describe(failure))
            }
            if count == 0 { throw PasteboardError.connectionLost("the daemon closed the connection") }
            return
        }
    }

    /// Returns once the handed-off socket `fd` is readable (or at its end). Meanwhile the
    /// connection is watched too: the daemon's error for request `id` (the source failed, and
    /// its end of the socket may never close) or the connection's end is thrown, not waited
    /// through; other frames stay for the exchange. Throws `CancellationError` once `interrupt`
    /// is readable.
    private func waitForHandedOffBytes(_ fd: Int32, id: UInt32, interrupt: Int32?) throws {
        var entries = [
            pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
            pollfd(fd: socket, events: Int16(POLLIN), revents: 0),
            pollfd(fd: interrupt ?? -1, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            for index in entries.indices { entries[index].revents = 0 }
            let ready = poll(&entries, nfds_t(entries.count), -1)
            if ready < 0 {
                if errno == EINTR { continue }
                throw PasteboardError.io("cannot wait for the handed-off data: \(SystemError.current)")
            }
            if entries[2].revents != 0 { throw CancellationError() }
            if entries[0].revents != 0 { return }
            if entries[1].revents != 0 {
                try receive()
                // Looked at without taking: the frames stay in `inbound` for the exchange.
                var look = inbound
                let maxFrameLength = handshakeWelcome.maxFrameLength
                while let frame = try? FrameCodec.decode(from: &look, maxFrameLength: maxFrameLength) {
                    guard frame.requestID == id || frame.requestID == 0, frame.kind == .message,
                          case .error(let error)? = try? frame.decodeMessage() else { continue }
                    throw PasteboardError.daemon(error)
                }
            }
        }
    }

    /// Returns once `fd` is readable (or at its end); throws `CancellationError` once
    /// `interrupt` is readable instead.
    private func waitUntilReadable(_ fd: Int32, interrupt: Int32?) throws {
        guard let interrupt else { return }
        var entries = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: interrupt, events: Int16(POLLIN), revents: 0)]
        while true {
            let ready = poll(&entries, 2, -1)
            if ready < 0, errno == EINTR { continue }
            if entries[1].revents != 0 { throw CancellationError() }
            return
        }
    }
}

internal import NIOCore
import Pasteboard
internal import PasteboardProtocol
import PasteboardTypes
import Synchronization

extension LinkSession {
    // MARK: - Fetching from the peer

    /// Fetches one representation of a change the peer offered and writes it to `writer` (the
    /// load handler of the promise this end registered): its size once known, its bytes as they
    /// come, credit granted as they are written. The paster sees the load fail when the link
    /// drops, the peer answers an error, or nothing arrives for the stall timeout; cancelling the
    /// load (the paster gave up) cancels the fetch at the peer, which stops its own load.
    func fetch(_ fetch: LinkFetch, into writer: RepresentationWriter) async throws {
        let id = nextRequestID()
        let (events, continuation) = AsyncThrowingStream.makeStream(of: LinkState.FetchEvent.self)
        let peerName: String = try state.withLock { state in
            guard let peer = state.peer else { throw LinkError("the link is not up") }
            state.fetches[id] = LinkState.FetchInbox(continuation: continuation, window: ReceiveWindow(window: settings.window))
            return peer.name
        }
        reporter.update { $0.began(id: id, fetch.type, pasteboard: fetch.pasteboard, direction: .incoming) }
        defer {
            _ = state.withLock { $0.fetches.removeValue(forKey: id) }
            reporter.update { $0.ended(id: id) }
        }
        try await send(.fetch(fetch), on: id)
        var received = 0
        // A peer that stops sending mid-transfer is given up on after the stall timeout; time
        // spent writing here (a slow paster) is not the peer's.
        let waiting = Mutex<ContinuousClock.Instant?>(ContinuousClock.now)
        let timeout = settings.stallTimeout
        let watchdog = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(500))
                if let since = waiting.withLock({ $0 }), ContinuousClock.now - since > timeout {
                    continuation.finish(throwing: LinkError("\(peerName) sent nothing for \(timeout.seconds) s during the transfer: the link stalled"))
                    return
                }
            }
        }
        defer { watchdog.cancel() }
        try await withTaskCancellationHandler {
            for try await event in events {
                waiting.withLock { $0 = nil }
                switch event {
                case .header(let header):
                    if let size = header.size { try await writer.declareSize(size) }
                case .data(let buffer, let end):
                    if buffer.readableBytes > 0 { try await writer.write(buffer) }
                    received += buffer.readableBytes
                    let bytes = received
                    reporter.update { $0.progress(id: id, bytes: bytes) }
                    if end { return }
                    let consumed = buffer.readableBytes
                    if let credit = state.withLock({ $0.fetches[id]?.window.consume(consumed) }) ?? nil {
                        try await send(.credit(Credit(bytes: credit)), on: id)
                    }
                }
                waiting.withLock { $0 = ContinuousClock.now }
            }
            try Task.checkCancellation()
            throw LinkError("the link to \(peerName) dropped during the transfer")
        } onCancel: {
            self.sendSoon(.cancel, on: id)
            continuation.finish(throwing: CancellationError())
        }
    }

    /// A frame on one of this end's ids: what belongs to a fetch of ours.
    func receiveForOwnRequest(_ frame: Frame) throws(ProtocolError) {
        let id = frame.requestID
        guard let inbox = state.withLock({ $0.fetches[id] }) else {
            // A fetch cancelled here may still get frames the peer sent before it heard.
            if frame.kind == .data || id < state.withLock({ $0.nextRequestID }) { return }
            throw ProtocolError(.unexpectedMessage, "a frame on request \(id), which this end never made")
        }
        if frame.kind == .data {
            let bytes = frame.payload.readableBytes
            try state.withLock { state throws(ProtocolError) in try state.fetches[id]?.window.receive(bytes) }
            inbox.continuation.yield(.data(frame.payload, end: frame.isEnd))
            if frame.isEnd { inbox.continuation.finish() }
            return
        }
        switch try LinkMessageCodec.decode(frame.payload) {
        case .header(let header):
            if let size = header.size, size < 0 { throw ProtocolError(.invalidArgument, "a fetched size of \(size)") }
            inbox.continuation.yield(.header(header))
        case .error(let error):
            inbox.continuation.finish(throwing: LinkError(error.message))
        case let other:
            throw ProtocolError(.unexpectedMessage, "'\(other.op)' on fetch \(id)")
        }
    }

    // MARK: - Answering the peer's fetches

    /// Answers a fetch of the peer's from this machine's daemon: the content must still be the
    /// one offered (same origin); its bytes are loaded (from the source, which sees the load and
    /// its progress) and sent under the peer's credit.
    func serve(_ fetch: LinkFetch, id: UInt32) throws(ProtocolError) {
        guard state.withLock({ $0.shared.contains(fetch.pasteboard) }) else {
            throw ProtocolError(.permissionDenied, "a fetch from '\(fetch.pasteboard.prefix(64))', which this link does not share")
        }
        guard fetch.item >= 0, fetch.item < 10_000 else { throw ProtocolError(.invalidArgument, "a fetch of item \(fetch.item)") }
        let window = SendWindow(initialCredit: state.withLock { $0.peer?.window ?? LinkHello.windowRange.lowerBound })
        try state.withLock { state throws(ProtocolError) in
            guard state.serving[id] == nil else { throw ProtocolError(.duplicateRequest, "fetch \(id) is already in flight") }
            guard state.serving.count < 64 else { throw ProtocolError(.limitReached, "more than 64 fetches in flight") }
            state.serving[id] = LinkState.ServedFetch(window: window)
        }
        let task = Task {
            await self.answer(fetch, id: id, window: window)
            _ = self.state.withLock { $0.serving.removeValue(forKey: id) }
        }
        state.withLock { $0.serving[id]?.task = task }
    }

    private func answer(_ fetch: LinkFetch, id: UInt32, window: SendWindow) async {
        reporter.update { $0.began(id: id, fetch.type, pasteboard: fetch.pasteboard, direction: .outgoing) }
        defer { reporter.update { $0.ended(id: id) } }
        guard let current = state.withLock({ $0.current[fetch.pasteboard] }), current.origin == fetch.origin else {
            try? await send(.error(ProtocolError(.sourceUnavailable, "the copy on \(hello.name) was replaced before it was pasted")), on: id)
            return
        }
        let pasteboard = Pasteboard(name: fetch.pasteboard, connection: connection)
        var sent = 0
        do {
            try await pasteboard.loadBuffers(item: fetch.item, accepting: [TypeIdentifier(rawValue: fetch.type)], header: { header in
                guard header.changeCount == current.changeCount else {
                    throw LinkError("the copy on \(self.hello.name) was replaced before it was pasted")
                }
                try await self.send(.header(LinkHeader(type: header.type, size: header.size)), on: id)
            }, chunk: { buffer in
                var buffer = buffer
                while buffer.readableBytes > 0 {
                    let count = try await window.acquire(upTo: min(buffer.readableBytes, self.chunkLimit))
                    try await self.send([.data(buffer.readSlice(length: count)!, requestID: id)])
                    sent += count
                    self.reporter.update { $0.progress(id: id, bytes: sent) }
                }
            })
            try await send([.data(ByteBuffer(), requestID: id, end: true)])
        } catch is CancellationError {
            // The peer cancelled: the load here stopped with it.
        } catch {
            if Task.isCancelled { return }
            try? await send(.error(ProtocolError(.sourceUnavailable, "\(error)")), on: id)
        }
    }
}

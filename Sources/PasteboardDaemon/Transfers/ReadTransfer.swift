import NIOCore
import PasteboardProtocol
import PasteboardSystem
import PasteboardTypes

/// Serves one `read`: negotiates the representation, announces it, and streams its bytes
/// under the destination's flow-control credit with progress reports: from memory, from a
/// file, or relayed from the live source that promised them.
struct ReadTransfer: Sendable {
    let request: ReadRequest
    let id: UInt32
    let control: TransferControl
    let store: PasteboardStore
    let writer: FrameWriter
    let chunkLimit: Int
    /// The loading client (for `own-process` items, drag sessions, and the source's information).
    let reader: any PromiseOwner
    /// Frees the request id; called just before the terminal frame, so a client that reuses the
    /// id as soon as it sees that frame never finds it still in flight.
    let release: @Sendable () -> Void

    private var window: SendWindow { control.window }
    private var destinationPID: Int32 { reader.pid }

    /// Runs the transfer to its terminal frame (the END data frame, or an error).
    func run() async {
        do {
            try await transfer()
        } catch let error as ProtocolError {
            release()
            try? await writer.send(.error(error), on: id)
        } catch {
            // Cancelled with the connection, or the connection is gone: nothing to tell.
            release()
        }
    }

    /// Answers a read of a pasteboard's small representation held in memory, or the read's
    /// error, at once; false when the read needs a task of its own (a file, a promise, more
    /// bytes than a frame or the first credit, a drag session's items), which then starts over.
    ///
    /// Run in the connection's inbound loop, it spares the commonest read its task.
    nonisolated(nonsending) func answerAtOnce() async -> Bool {
        guard request.session == nil else { return false }
        do {
            let accepted = try acceptedTypes()
            let chosen = try negotiate(accepted, in: try await readableItems())
            guard case .data(let chunks) = chosen.representation.content else { return false }
            return try await sendWhole(chunks, of: chosen)
        } catch let error as ProtocolError {
            release()
            try? await writer.send(.error(error), on: id)
            return true
        } catch {
            release()
            return true
        }
    }

    /// The representation a read loads, and its header.
    private struct Chosen {
        var representation: StoredRepresentation
        var header: (_ size: Int?, _ path: String?, _ handoff: Bool) -> Message
    }

    /// The types the read accepts, in its order.
    private func acceptedTypes() throws(ProtocolError) -> [TypeIdentifier] {
        var accepted: [TypeIdentifier] = []
        accepted.reserveCapacity(request.accept.count)
        let registry = store.registry
        for string in request.accept {
            guard let type = registry.resolve(string) ?? TypeIdentifier.wellFormed(string) else {
                throw ProtocolError(.unknownType, "'\(string)' is not a type identifier or MIME type")
            }
            accepted.append(type)
        }
        return accepted
    }

    /// Chooses the representation to send of the requested item.
    private func negotiate(_ accepted: [TypeIdentifier], in source: ReadableItems) throws(ProtocolError) -> Chosen {
        let registry = store.registry
        guard request.item >= 0, request.item < source.items.count else {
            throw ProtocolError(
                .noSuchItem,
                source.items.isEmpty
                    ? "\(source.label) is empty"
                    : "\(source.label) has no item \(request.item) (it holds \(source.items.count))"
            )
        }
        let pasteboard = source
        let item = pasteboard.items[request.item]
        if item.visibility == .ownProcess, item.writerPID != destinationPID {
            throw ProtocolError(
                .permissionDenied,
                "item \(request.item) of \(source.label) may be loaded only by the process that wrote it (pid \(item.writerPID.map(String.init) ?? "?"))"
            )
        }
        let types = item.representations.map(\.type)
        // Representations whose source is gone are passed over while another accepted one can
        // be sent; only when none can does the read fail with the reason they are gone.
        let available = item.representations.indices.filter { !item.representations[$0].isUnavailable }
        let choice = registry.chooseRepresentation(among: available.map { types[$0] }, accepting: accepted).map { available[$0] }
        guard let index = choice ?? registry.chooseRepresentation(among: types, accepting: accepted) else {
            throw ProtocolError(
                .noConformingRepresentation,
                "no representation conforming to \(accepted.map(\.rawValue).joined(separator: ", ")) (the item offers \(types.map(\.rawValue).joined(separator: ", ")))"
            )
        }
        let representation = item.representations[index]
        let request = request
        return Chosen(representation: representation) { size, path, handoff in
            .representation(RepresentationHeader(
                changeCount: pasteboard.changeCount, item: request.item, index: index,
                type: representation.type.rawValue, size: size,
                mimeType: registry.preferredMIMEType(for: representation.type), path: path,
                handoff: handoff ? true : nil
            ))
        }
    }

    /// Sends a representation that fits one frame and the credit with its header, final
    /// progress and END in one write; false (nothing sent) when it does not.
    nonisolated(nonsending) private func sendWhole(_ chunks: [ByteBuffer], of chosen: Chosen) async throws -> Bool {
        guard let size = chosen.representation.size, size <= chunkLimit, try window.take(size) else { return false }
        // A frame each would cost the client a wake-up each.
        try Task.checkCancellation()
        var frames: [Frame] = [.message(chosen.header(size, nil, false), requestID: id)]
        if size > 0 {
            var bytes = chunks.count == 1 ? chunks[0] : ByteBuffer()
            if chunks.count != 1 { for chunk in chunks { bytes.writeImmutableBuffer(chunk) } }
            frames.append(.data(bytes, requestID: id))
        }
        frames.append(.message(.progress(ProgressThrottle(total: size).report(size)), requestID: id))
        frames.append(.data(ByteBuffer(), requestID: id, end: true))
        release()
        try await writer.send(frames)
        return true
    }

    private func transfer() async throws {
        let accepted = try acceptedTypes()
        let source = try await readableItems()
        if let session = request.session {
            try await store.attachLoad(control, to: session)
        }
        defer {
            if let session = request.session {
                Task { [store, control] in await store.detachLoad(control, from: session) }
            }
        }
        let chosen = try negotiate(accepted, in: source)
        let representation = chosen.representation
        func header(size: Int?, path: String? = nil, handoff: Bool = false) -> Message {
            chosen.header(size, path, handoff)
        }
        switch representation.content {
        case .data(let chunks):
            if try await sendWhole(chunks, of: chosen) { return }
            try await writer.send(header(size: representation.size), on: id)
            var stream = OutgoingStream(transfer: self, total: representation.size)
            for chunk in chunks { try await stream.forward(chunk) }
            try await stream.finish()
        case .file(let path, let openInPlace):
            if openInPlace, request.openInPlace == true {
                try await writer.send(header(size: representation.size, path: path), on: id)
                release()
                try await writer.sendData(ByteBuffer(), on: id, end: true)
                return
            }
            try await streamFile(try await FileSource(path: path)) { size in try await writer.send(header(size: size), on: id) }
        case .stored(let file):
            let handedOff = try await handOffStored(file) { size in try await writer.send(header(size: size, handoff: true), on: id) }
            if handedOff { return }
            try await streamFile(try await FileSource(spool: file)) { size in try await writer.send(header(size: size), on: id) }
        case .promise(let promise):
            let handedOff = try await handOff(promise, type: representation.type, declaredSize: representation.size) { size in
                try await writer.send(header(size: size, handoff: true), on: id)
            }
            if handedOff { return }
            try await relay(promise, type: representation.type, declaredSize: representation.size) { size in
                try await writer.send(header(size: size), on: id)
            }
        case .unavailable(let reason):
            throw ProtocolError(.sourceUnavailable, reason)
        }
    }

    /// What a read can load from: a pasteboard's items, or a dropped drag session's.
    private struct ReadableItems {
        var changeCount: Int
        var items: [StoredItem]
        /// "pasteboard 'general'" or "drag session 3", for messages.
        var label: String
    }

    nonisolated(nonsending) private func readableItems() async throws -> ReadableItems {
        if let session = request.session {
            let items = try await store.droppedItems(of: session, for: reader)
            return ReadableItems(changeCount: 0, items: items, label: "drag session \(session)")
        }
        guard let name = request.pasteboard else {
            throw ProtocolError(.invalidArgument, "'read' needs a pasteboard or a session")
        }
        if let failure = PasteboardName.validationFailure(name) {
            throw ProtocolError(.invalidArgument, failure)
        }
        let pasteboard = await store.pasteboard(named: name)
        return ReadableItems(changeCount: pasteboard.changeCount, items: pasteboard.items, label: "pasteboard '\(name)'")
    }

    /// Streams a file the daemon reads itself, a chunk at a time.
    private func streamFile(_ file: consuming FileSource, header: (Int) async throws -> Void) async throws {
        try await header(file.size)
        var stream = OutgoingStream(transfer: self, total: file.size)
        while true {
            let chunk = try await file.read(at: stream.completed, count: chunkLimit)
            if chunk.readableBytes == 0 { break }
            try await stream.forward(chunk)
        }
        if stream.completed != file.size {
            throw ProtocolError(.sourceUnavailable, "\(file.path) changed size while it was read (\(file.size) bytes, then \(stream.completed))")
        }
        try await stream.finish()
    }

    /// Asks the promise's source for the bytes and forwards them as they arrive.
    private func relay(_ promise: StoredRepresentation.Promise, type: TypeIdentifier, declaredSize: Int?,
                       header: (Int?) async throws -> Void) async throws {
        let source = promise.owner
        let relay = try await source.produce(ProduceRequest(
            promise: promise.id, pasteboard: request.session == nil ? request.pasteboard : nil, session: request.session, item: request.item,
            type: type.rawValue, destinationPID: destinationPID
        ))
        control.attach(relay)
        do {
            var size = declaredSize
            var event = try await relay.next()
            if case .size(let bytes) = event {
                if let size, size != bytes {
                    throw ProtocolError(.sourceUnavailable, "\(source) declared \(bytes) bytes of \(type) after promising \(size)")
                }
                size = bytes
                event = try await relay.next()
            }
            try await header(size)
            var stream = OutgoingStream(transfer: self, total: size, source: (source, relay))
            loop: while true {
                switch event {
                case .data(let chunk):
                    try await stream.forward(chunk)
                    if let size, stream.completed > size {
                        throw ProtocolError(.sourceUnavailable, "\(source) produced more than the \(size) bytes it declared for \(type)")
                    }
                    if let credit = relay.consumed(chunk.readableBytes) { await source.grant(credit, to: relay) }
                case .end:
                    break loop
                case .size:
                    throw ProtocolError(.sourceUnavailable, "\(source) declared the size of \(type) twice")
                }
                event = try await relay.next()
            }
            if let size, stream.completed != size {
                throw ProtocolError(.sourceUnavailable, "\(source) produced \(stream.completed) of the \(size) bytes it declared for \(type)")
            }
            try await stream.finish {
                await source.finish(relay, with: .ok(OK()))
            }
        } catch {
            let reason = (error as? ProtocolError)?.message ?? "the destination went away"
            await source.finish(relay, with: .error(ProtocolError(.cancelled, "the load stopped: \(reason)")))
            throw error
        }
    }

    /// The destination side of a load: data frames under credit, and throttled progress to the
    /// destination (and to the source, when there is one).
    private struct OutgoingStream {
        let transfer: ReadTransfer
        var throttle: ProgressThrottle
        var source: (connection: any PromiseOwner, relay: Relay)?
        private(set) var completed = 0

        init(transfer: ReadTransfer, total: Int?, source: (any PromiseOwner, Relay)? = nil) {
            self.transfer = transfer
            self.throttle = ProgressThrottle(total: total)
            self.source = source
        }

        mutating func forward(_ chunk: ByteBuffer) async throws {
            var remaining = chunk
            while remaining.readableBytes > 0 {
                let allowed = try await transfer.window.acquire(upTo: min(remaining.readableBytes, transfer.chunkLimit))
                try await transfer.writer.sendData(remaining.readSlice(length: allowed)!, on: transfer.id, end: false)
            }
            completed += chunk.readableBytes
            // The report of the last byte is the final one, which `finish` sends.
            if completed != throttle.total, throttle.shouldReport(completed) { try await report() }
        }

        /// Sends the final progress, runs `beforeEnd`, frees the id and sends the END frame.
        func finish(beforeEnd: () async -> Void = {}) async throws {
            try Task.checkCancellation()
            try await report()
            await beforeEnd()
            transfer.release()
            try await transfer.writer.sendData(ByteBuffer(), on: transfer.id, end: true)
        }

        private func report() async throws {
            let progress = throttle.report(completed)
            try await transfer.writer.send(.progress(progress), on: transfer.id)
            if let source { await source.connection.report(progress, to: source.relay) }
        }
    }
}

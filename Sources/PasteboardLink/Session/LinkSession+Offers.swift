internal import NIOCore
import Pasteboard
internal import PasteboardProtocol
import PasteboardSystem
import PasteboardTypes
import Synchronization

extension LinkSession {
    // MARK: - This end's changes, offered to the peer

    /// Watches `name` on this machine and offers each change the peer has not seen: the current
    /// content first (so two machines that meet settle on the later of their contents), then
    /// every change as it comes.
    func offerChanges(of name: String) async throws {
        let pasteboard = Pasteboard(name: name, connection: connection)
        var withheld = false
        for try await change in pasteboard.changes({ $0 }) {
            state.withLock { $0.current[name] = change }
            guard let origin = change.origin else { continue }
            let (peer, seen) = state.withLock { ($0.peer, $0.received.contains(origin)) }
            guard let peer, !seen, origin.machine != peer.machine else { continue }
            if change.items.isEmpty {
                // A clear of what never crossed (a secret) stays home too.
                if !withheld { try await send(.clear(LinkClear(pasteboard: name, origin: origin)), on: nextRequestID()) }
                withheld = false
                reporter.update { $0.changesSent += 1 }
                continue
            }
            let carriesSecrets = settings.sensitive && peer.sensitive
            if change.items.contains(where: \.isSensitive), !carriesSecrets {
                withheld = true
                reporter.log("a sensitive copy on '\(name)' stays on this machine")
                continue
            }
            withheld = false
            if try await offer(change, origin: origin, to: peer, carriesSecrets: carriesSecrets) {
                reporter.update { $0.changesSent += 1 }
            }
        }
        throw LinkError("the watch of '\(name)' ended")
    }

    /// Sends one change; false when it was not sent (it changed again while its text was read).
    private func offer(_ change: ItemsReply, origin: ChangeOrigin, to peer: LinkHello, carriesSecrets: Bool) async throws -> Bool {
        let registry = connection.registry
        var budget = min(settings.capture, peer.capture)
        var items: [LinkItem] = []
        var inline: [(item: Int, type: String)] = []
        for (index, info) in change.items.enumerated() {
            var representations: [LinkRepresentation] = []
            for representation in info.representations where representation.unavailable != true {
                if !carriesSecrets, LinkMarkers.isMarker(representation.type) { continue }
                var isInline = false
                // Text the daemon holds crosses at once; a live source's is fetched when pasted,
                // like everything else (reading it now would be its paste: a paste-once copy
                // would be used up by the link).
                if representation.lazy != true, let size = representation.size, size <= budget,
                   registry.conforms(TypeIdentifier(rawValue: representation.type), to: .text) {
                    isInline = true
                    budget -= size
                    inline.append((index, representation.type))
                }
                representations.append(LinkRepresentation(type: representation.type, size: representation.size, inline: isInline ? true : nil))
            }
            items.append(LinkItem(representations: representations, suggestedName: info.suggestedName, sensitive: info.isSensitive ? true : nil))
        }
        // Inline bytes are read before anything is sent: a change that moves on meanwhile is not
        // sent half (the newer one follows).
        let pasteboard = Pasteboard(name: change.pasteboard, connection: connection)
        var data: [Frame] = []
        let id = nextRequestID()
        for (item, type) in inline {
            var stale = false
            var chunks: [ByteBuffer] = []
            do {
                try await pasteboard.loadBuffers(item: item, accepting: [TypeIdentifier(rawValue: type)], header: { header in
                    if header.changeCount != change.changeCount || header.type != type { stale = true; throw CancellationError() }
                }, chunk: { chunks.append($0) })
            } catch {
                if stale { return false }
                // Text that cannot be read now is offered as a promise instead.
                reporter.log("text of item \(item) not read at once (\(error)); offering it as a promise")
                for index in items[item].representations.indices where items[item].representations[index].type == type {
                    items[item].representations[index].inline = nil
                }
                continue
            }
            let total = chunks.reduce(0) { $0 + $1.readableBytes }
            for index in items[item].representations.indices where items[item].representations[index].type == type {
                items[item].representations[index].size = total
            }
            data += frames(of: chunks, on: id)
        }
        let offer = LinkOffer(pasteboard: change.pasteboard, origin: origin, items: items, expiresIn: change.expiresIn)
        try await send([Frame.link(.offer(offer), requestID: id)] + data)
        return true
    }

    /// `chunks` as data frames on `id` of at most a chunk each, the last marked END.
    func frames(of chunks: [ByteBuffer], on id: UInt32) -> [Frame] {
        var frames: [Frame] = []
        for var chunk in chunks {
            while chunk.readableBytes > 0 {
                frames.append(.data(chunk.readSlice(length: min(chunk.readableBytes, chunkLimit))!, requestID: id))
            }
        }
        frames.append(.data(ByteBuffer(), requestID: id, end: true))
        return frames
    }

    // MARK: - The peer's changes, written here

    /// A frame on an id of the peer's: an offer, a clear, a fetch, or what belongs to one.
    func receiveForPeerRequest(_ frame: Frame) throws(ProtocolError) {
        let id = frame.requestID
        guard let peer = state.withLock({ $0.peer }) else { throw ProtocolError(.handshakeRequired, "a request before link-hello") }
        if frame.kind == .data {
            let complete: OfferAssembly? = try state.withLock { state throws(ProtocolError) in
                guard var assembly = state.offers[id] else { throw ProtocolError(.unexpectedMessage, "data frame on id \(id), which expects none") }
                try assembly.take(frame.payload, end: frame.isEnd)
                if assembly.isComplete {
                    state.offers[id] = nil
                    state.inlineInFlight -= assembly.inlineBytes
                    return assembly
                }
                state.offers[id] = assembly
                return nil
            }
            if let complete { apply(complete, from: peer) }
            return
        }
        let message = try LinkMessageCodec.decode(frame.payload)
        switch message {
        case .offer(let offer):
            try check(offer, from: peer)
            let assembly = try OfferAssembly(offer, capture: settings.capture)
            if assembly.isComplete {
                apply(assembly, from: peer)
            } else {
                let limit = settings.capture.multipliedReportingOverflow(by: 4).partialValue
                try state.withLock { state throws(ProtocolError) in
                    guard state.offers[id] == nil, state.offers.count < 64 else { throw ProtocolError(.limitReached, "more than 64 offers in flight") }
                    guard state.inlineInFlight + assembly.inlineBytes <= limit else {
                        throw ProtocolError(.limitReached, "offers in flight declare more than \(limit) inline bytes")
                    }
                    state.inlineInFlight += assembly.inlineBytes
                    state.offers[id] = assembly
                }
            }
        case .clear(let clear):
            try checkShared(clear.pasteboard, origin: clear.origin)
            state.withLock { $0.received.insert(clear.origin) }
            let pasteboard = Pasteboard(name: clear.pasteboard, connection: connection)
            Task {
                do {
                    try await pasteboard.clear(origin: clear.origin)
                    self.reporter.update { $0.changesReceived += 1 }
                } catch {
                    self.noteWriteFailure(error, pasteboard: clear.pasteboard)
                }
            }
        case .fetch(let fetch):
            try serve(fetch, id: id)
        case .credit(let credit):
            guard credit.bytes > 0, credit.bytes <= LinkHello.windowRange.upperBound else { throw ProtocolError(.flowControl, "credit of \(credit.bytes) bytes") }
            state.withLock { $0.serving[id] }?.window.grant(credit.bytes)
        case .cancel:
            let served = state.withLock { $0.serving.removeValue(forKey: id) }
            served?.window.fail(CancellationError())
            served?.task?.cancel()
        default:
            throw ProtocolError(.unexpectedMessage, "'\(message.op)' on the peer's request \(id)")
        }
    }

    private func checkShared(_ name: String, origin: ChangeOrigin) throws(ProtocolError) {
        guard state.withLock({ $0.shared.contains(name) }) else { throw ProtocolError(.permissionDenied, "a change of '\(name.prefix(64))', which this link does not share") }
        if let problem = origin.problem { throw ProtocolError(.invalidArgument, problem) }
    }

    private func check(_ offer: LinkOffer, from peer: LinkHello) throws(ProtocolError) {
        try checkShared(offer.pasteboard, origin: offer.origin)
        guard offer.items.count <= 10_000 else { throw ProtocolError(.tooLarge, "an offer of \(offer.items.count) items") }
        for item in offer.items {
            guard item.representations.count <= 256 else { throw ProtocolError(.tooLarge, "an item of \(item.representations.count) representations") }
            for representation in item.representations {
                guard !representation.type.isEmpty, representation.type.utf8.count <= 1024 else { throw ProtocolError(.invalidArgument, "a representation type of \(representation.type.utf8.count) bytes") }
                if let size = representation.size, size < 0 { throw ProtocolError(.invalidArgument, "a negative size") }
            }
            if let name = item.suggestedName, name.utf8.count > 4096 { throw ProtocolError(.invalidArgument, "a suggested name of \(name.utf8.count) bytes") }
        }
        if let expiresIn = offer.expiresIn, !(expiresIn.isFinite && expiresIn >= 0 && expiresIn <= SecondsLimit.maximum) {
            throw ProtocolError(.invalidArgument, "an expiry of \(expiresIn) s")
        }
    }

    /// Writes a complete offer of the peer's to this machine's pasteboard, with its origin:
    /// inline bytes as data, every other representation as a promise fetched from the peer when pasted.
    private func apply(_ assembly: OfferAssembly, from peer: LinkHello) {
        let offer = assembly.offer
        // A content that expires now is as good as cleared: it is not written.
        if let expiresIn = offer.expiresIn, expiresIn <= 0 {
            state.withLock { $0.received.insert(offer.origin) }
            return
        }
        let carriesSecrets = settings.sensitive && peer.sensitive
        state.withLock { $0.received.insert(offer.origin) }
        var providers: [ItemProvider] = []
        for (itemIndex, item) in offer.items.enumerated() {
            if item.sensitive == true, !carriesSecrets {
                reporter.log("dropped a sensitive item the other end sent though this end does not take them")
                continue
            }
            var provider = ItemProvider(suggestedName: item.suggestedName, sensitive: item.sensitive == true)
            for (index, representation) in item.representations.enumerated() {
                let type = TypeIdentifier(rawValue: representation.type)
                if !carriesSecrets, LinkMarkers.isMarker(representation.type) { continue }
                if let bytes = assembly.bytes(item: itemIndex, representation: index) {
                    provider.registerData(chunks: bytes.map { ByteChunk($0.readableBytesView) }, for: type)
                } else {
                    let fetch = LinkFetch(pasteboard: offer.pasteboard, origin: offer.origin, item: itemIndex, type: representation.type)
                    provider.registerDataRepresentation(for: type, size: representation.size) { [self] writer in
                        try await self.fetch(fetch, into: writer)
                    }
                }
            }
            if !provider.registeredTypes.isEmpty { providers.append(provider) }
        }
        let pasteboard = Pasteboard(name: offer.pasteboard, connection: connection)
        let expiry = offer.expiresIn.map(SecondsLimit.duration)
        Task {
            do {
                if providers.isEmpty {
                    try await pasteboard.clear(origin: offer.origin)
                } else {
                    try await pasteboard.setItems(providers, expiringAfter: expiry, origin: offer.origin)
                }
                self.reporter.update { $0.changesReceived += 1 }
            } catch {
                self.noteWriteFailure(error, pasteboard: offer.pasteboard)
            }
        }
    }

    func noteWriteFailure(_ error: any Error, pasteboard: String) {
        if let error = error as? PasteboardError, error.code?.rawValue == ErrorCode.superseded.rawValue {
            reporter.update { $0.changesSuperseded += 1 }
            return
        }
        reporter.log("a change of '\(pasteboard)' from the other end was not written: \(error)")
    }
}


import NIOCore
import PasteboardProtocol
import PasteboardTypes

/// A named pasteboard seen through a connection to the daemon.
public struct Pasteboard: Sendable {
    /// The pasteboard's name ("general" unless told otherwise).
    public let name: String
    /// The connection requests go through.
    public let connection: PasteboardConnection

    /// The pasteboard called `name` on `connection`.
    public init(name: String = PasteboardName.general, connection: PasteboardConnection) {
        self.name = name
        self.connection = connection
    }

    /// The change count and a description of every item (types, sizes, suggested names).
    public func contents() async throws -> ItemsReply {
        let reply = try await simpleRequest(.list(PasteboardRequest(pasteboard: name)))
        guard case .items(let items) = reply else { throw unexpected(reply) }
        return items
    }

    /// The current change count.
    public func changeCount() async throws -> Int {
        try await contents().changeCount
    }

    /// Removes every item; returns the new change count.
    @discardableResult
    public func clear() async throws -> Int {
        let reply = try await simpleRequest(.clear(PasteboardRequest(pasteboard: name)))
        guard case .ok(let ok) = reply, let changeCount = ok.changeCount else { throw unexpected(reply) }
        return changeCount
    }

    /// Replaces the items; returns once the daemon holds all of them, with the new change count.
    /// Bytes are sent under the daemon's flow-control credit.
    @discardableResult
    public func setItems(_ items: [WriteItem]) async throws -> Int {
        let window = SendWindow(initialCredit: connection.welcome.window)
        let (id, frames) = connection.openRequest(window: window)
        defer { connection.closeRequest(id) }
        let request = WriteRequest(pasteboard: name, items: items.map { item in
            ItemInfo(
                representations: item.representations.map { RepresentationInfo(type: $0.type.rawValue, size: $0.size) },
                suggestedName: item.suggestedName
            )
        })
        try await connection.send(.write(request), on: id)
        // The daemon may refuse the write at once (a limit, a bad type); watch for that while sending.
        return try await withThrowingTaskGroup(of: Int?.self) { group in
            group.addTask {
                for try await frame in frames where frame.kind == .message {
                    switch try frame.decodeMessage() {
                    case .ok(let ok): return ok.changeCount ?? 0
                    case .error(let error): throw PasteboardError.daemon(error)
                    default: continue
                    }
                }
                throw PasteboardError.connectionLost("the daemon closed the connection before confirming the write")
            }
            group.addTask {
                try await self.upload(items, id: id, window: window)
                return nil
            }
            while let result = try await group.next() {
                if let changeCount = result {
                    group.cancelAll()
                    return changeCount
                }
            }
            throw PasteboardError.connectionLost("the write ended without an answer")
        }
    }

    private func upload(_ items: [WriteItem], id: UInt32, window: SendWindow) async throws {
        let limit = connection.chunkLimit
        for item in items {
            for representation in item.representations {
                for chunk in representation.chunks {
                    var remaining = chunk
                    while remaining.readableBytes > 0 {
                        let allowed = try await window.acquire(upTo: min(limit, remaining.readableBytes))
                        try await connection.sendData(remaining.readSlice(length: allowed)!, on: id, end: false)
                    }
                }
                try await connection.sendData(ByteBuffer(), on: id, end: true)
            }
        }
    }

    /// Loads item `item`'s representation best matching `accepting` (UTIs or MIME types, most
    /// preferred first; empty for the item's first representation).
    ///
    /// `header` is called once with the daemon's choice, then `chunk` with the bytes in order;
    /// credit is returned to the daemon as each chunk is consumed, so memory stays bounded.
    /// Cancelling the task cancels the load at the daemon.
    @discardableResult
    public func load(
        item: Int = 0,
        accepting: [TypeIdentifier],
        header: (RepresentationHeader) async throws -> Void = { _ in },
        chunk: (ByteBuffer) async throws -> Void
    ) async throws -> RepresentationHeader {
        let (id, frames) = connection.openRequest()
        defer { connection.closeRequest(id) }
        try await connection.send(.read(ReadRequest(pasteboard: name, item: item, accept: accepting.map(\.rawValue))), on: id)
        var window = ReceiveWindow(window: connection.welcome.window)
        var chosen: RepresentationHeader?
        do {
            for try await frame in frames {
                switch frame.kind {
                case .message:
                    switch try frame.decodeMessage() {
                    case .representation(let value):
                        chosen = value
                        try await header(value)
                    case .error(let error):
                        throw PasteboardError.daemon(error)
                    default:
                        continue
                    }
                case .data:
                    guard let chosen else {
                        throw PasteboardError.connectionLost("the daemon sent data before naming the representation")
                    }
                    let bytes = frame.payload.readableBytes
                    try window.receive(bytes)
                    if bytes > 0 { try await chunk(frame.payload) }
                    if frame.isEnd { return chosen }
                    if let credit = window.consume(bytes) {
                        try await connection.send(.credit(Credit(bytes: credit)), on: id)
                    }
                }
            }
        } catch is CancellationError {
            try? await connection.send(.cancel, on: id)
            throw CancellationError()
        } catch let error as ProtocolError {
            try? await connection.send(.cancel, on: id)
            throw PasteboardError.daemon(error)
        }
        if Task.isCancelled {
            try? await connection.send(.cancel, on: id)
            throw CancellationError()
        }
        throw PasteboardError.connectionLost("the daemon closed the connection during the load")
    }

    /// Loads a representation whole into memory; see `load(item:accepting:header:chunk:)`.
    public func loadData(item: Int = 0, accepting: [TypeIdentifier]) async throws -> (header: RepresentationHeader, bytes: [UInt8]) {
        var bytes: [UInt8] = []
        let header = try await load(item: item, accepting: accepting, header: { header in
            if let size = header.size { bytes.reserveCapacity(size) }
        }, chunk: { chunk in
            bytes.append(contentsOf: chunk.readableBytesView)
        })
        return (header, bytes)
    }

    /// Every change of the pasteboard from now on, until the consuming task stops iterating.
    public func changes() -> AsyncThrowingStream<ItemsReply, any Error> {
        let connection = connection
        let name = name
        return AsyncThrowingStream { continuation in
            let task = Task {
                let (id, frames) = connection.openRequest()
                defer { connection.closeRequest(id) }
                do {
                    try await connection.send(.watch(PasteboardRequest(pasteboard: name)), on: id)
                    for try await frame in frames where frame.kind == .message {
                        switch try frame.decodeMessage() {
                        case .changed(let change): continuation.yield(change)
                        case .error(let error): throw PasteboardError.daemon(error)
                        default: continue
                        }
                    }
                    continuation.finish(throwing: Task.isCancelled ? nil : PasteboardError.connectionLost("the daemon closed the connection"))
                } catch {
                    if Task.isCancelled { try? await connection.send(.cancel, on: id) }
                    continuation.finish(throwing: Task.isCancelled ? nil : error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    private func simpleRequest(_ message: Message) async throws -> Message {
        let (id, frames) = connection.openRequest()
        defer { connection.closeRequest(id) }
        try await connection.send(message, on: id)
        for try await frame in frames where frame.kind == .message {
            let reply = try frame.decodeMessage()
            if case .error(let error) = reply { throw PasteboardError.daemon(error) }
            return reply
        }
        throw PasteboardError.connectionLost("the daemon closed the connection before answering")
    }

    private func unexpected(_ message: Message) -> PasteboardError {
        .connectionLost("unexpected '\(message.op)' from the daemon")
    }
}

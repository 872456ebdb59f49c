internal import NIOCore
internal import PasteboardProtocol
import PasteboardSystem
import PasteboardTypes

/// Items on their way to the daemon (in a `write`, `drag` or `add`): their wire descriptions,
/// with promised representations registered with the connection, and the upload of their eager
/// bytes under the daemon's flow-control credit.
struct ItemUpload: Sendable {
    let connection: PasteboardConnection
    let items: [ItemProvider]
    /// The items as described on the wire.
    let infos: [ItemInfo]
    /// The promise numbers registered for them.
    let registered: [Int]

    init(_ items: [ItemProvider], connection: PasteboardConnection) {
        var registered: [Int] = []
        self.infos = items.map { item in
            Self.info(for: item) { handler, observer in
                connection.attachHandoff()  // attached before the daemon may ask for a hand-off
                let number = connection.promises.register(.init(handler: handler, observer: observer))
                registered.append(number)
                return number
            }
        }
        self.connection = connection
        self.items = items
        self.registered = registered
    }

    /// `item` as described on the wire; `promise` registers a promised representation's
    /// handler and returns the number the daemon will name it by.
    static func info<Failure: Error>(
        for item: ItemProvider,
        promise: (@escaping ItemProvider.LoadHandler, (@Sendable (SourceEvent) -> Void)?) throws(Failure) -> Int
    ) throws(Failure) -> ItemInfo {
        var representations: [RepresentationInfo] = []
        for representation in item.representations {
            var info = RepresentationInfo(type: representation.type.rawValue, size: representation.size)
            switch representation.content {
            case .data, .stream: break
            case .promise(let handler, let observer):
                info.promise = try promise(handler, observer)
            case .file(let path, let openInPlace):
                info.file = LexicalPath.absolute(path)
                info.openInPlace = openInPlace ? true : nil
            }
            representations.append(info)
        }
        return ItemInfo(
            representations: representations, suggestedName: item.suggestedName,
            visibility: item.visibility == .all ? nil : item.visibility.wire,
            sensitive: item.isSensitive ? true : nil
        )
    }

    /// Opens a request, sends `message` (which carries `infos`), uploads the eager bytes, and
    /// returns the daemon's first answer with the request, which stays open for what follows.
    /// An `error` answer is thrown; on any failure the promises are released and the request closed.
    func send(_ message: Message) async throws -> (reply: Message, id: UInt32, frames: RequestFrames) {
        let window = SendWindow(initialCredit: connection.welcome.window)
        let (id, frames) = connection.openRequest(window: window)
        do {
            if let whole = wholeUpload(id: id, within: connection.welcome.window) {
                // Small: the request and all its bytes go out in one write, within the first credit.
                try await connection.send([.message(message, requestID: id)] + whole)
                for try await frame in frames where frame.kind == .message {
                    let reply = try frame.decodeMessage()
                    if case .error(let error) = reply { throw PasteboardError.daemon(error) }
                    return (reply, id, frames)
                }
                throw PasteboardError.connectionLost("the daemon closed the connection before answering '\(message.op)'")
            }
            try await connection.send(message, on: id)
            // The daemon may refuse at once (a limit, a bad type); watch for that while sending.
            let reply = try await withThrowingTaskGroup(of: Message?.self) { group in
                group.addTask {
                    for try await frame in frames where frame.kind == .message {
                        let reply = try frame.decodeMessage()
                        if case .error(let error) = reply { throw PasteboardError.daemon(error) }
                        return reply
                    }
                    throw PasteboardError.connectionLost("the daemon closed the connection before answering '\(message.op)'")
                }
                group.addTask {
                    try await self.upload(id: id, window: window)
                    return nil
                }
                while let result = try await group.next() {
                    if let reply = result {
                        group.cancelAll()
                        return reply
                    }
                }
                throw PasteboardError.connectionLost("'\(message.op)' ended without an answer")
            }
            return (reply, id, frames)
        } catch {
            connection.closeRequest(id)
            connection.promises.release(registered)
            throw error
        }
    }

    /// Every eager byte as data frames on request `id` (each representation's last frame with
    /// END), when they add up to at most `credit` bytes: what the daemon takes before granting more.
    private func wholeUpload(id: UInt32, within credit: Int) -> [Frame]? {
        var total = 0
        for item in items {
            for representation in item.representations {
                if case .stream = representation.content { return nil }  // read as sent, never gathered
                guard case .data(let byteChunks) = representation.content else { continue }
                let chunks = byteChunks.map(\.buffer)
                for chunk in chunks { total += chunk.readableBytes }
            }
        }
        guard total <= credit else { return nil }
        let limit = connection.chunkLimit
        var frames: [Frame] = []
        for item in items {
            for representation in item.representations {
                guard case .data(let byteChunks) = representation.content else { continue }
                let chunks = byteChunks.map(\.buffer)
                var slices: [ByteBuffer] = []
                for chunk in chunks {
                    var remaining = chunk
                    while remaining.readableBytes > 0 { slices.append(remaining.readSlice(length: min(limit, remaining.readableBytes))!) }
                }
                let last = slices.popLast() ?? ByteBuffer()
                frames += slices.map { .data($0, requestID: id, end: false) }
                frames.append(.data(last, requestID: id, end: true))
            }
        }
        return frames
    }

    private func upload(id: UInt32, window: SendWindow) async throws {
        let limit = connection.chunkLimit
        for item in items {
            for representation in item.representations {
                switch representation.content {
                case .data(let byteChunks):
                    for chunk in byteChunks.map(\.buffer) {
                        try await send(chunk, id: id, window: window, limit: limit)
                    }
                case .stream(let stream):
                    do {
                        try stream.claim()
                    } catch {
                        try? await connection.send(.cancel, on: id)
                        throw error
                    }
                    while true {
                        // A read may block (a slow pipe): off the cooperative threads.
                        let chunk: ByteBuffer
                        do {
                            chunk = try await BlockingWork.run { try stream.read(upTo: limit) }
                        } catch {
                            // Abandon the write: the pasteboard keeps what it had.
                            try? await connection.send(.cancel, on: id)
                            throw error
                        }
                        if chunk.readableBytes == 0 { break }
                        try await send(chunk, id: id, window: window, limit: limit)
                    }
                case .promise, .file:
                    continue
                }
                try await connection.sendData(ByteBuffer(), on: id, end: true)
            }
        }
    }

    /// Sends `chunk` as data frames of at most `limit` bytes, each when the daemon's credit allows.
    private func send(_ chunk: ByteBuffer, id: UInt32, window: SendWindow, limit: Int) async throws {
        var remaining = chunk
        while remaining.readableBytes > 0 {
            let allowed = try await window.acquire(upTo: min(limit, remaining.readableBytes))
            try await connection.sendData(remaining.readSlice(length: allowed)!, on: id, end: false)
        }
    }
}

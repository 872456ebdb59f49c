import PasteboardSystem

/// One target of a selection, read from its owner on a connection and a thread of its own
/// (`BlockingWork`), as chunks an async task consumes: what a lazy paste of a desktop copy
/// reads. The X side starts at once; at most `bufferedChunks` chunks of at most `readSize`
/// bytes wait for the consumer, and while they wait the X side stops reading (and so stops
/// deleting INCR properties, which pauses the owner), so memory stays bounded whatever the size.
///
/// Errors are the X side's (`X11Error`): `.ownerGone` when `owner` no longer owns the selection
/// (a fetch from anyone else would read the wrong copy) or left during the transfer, `.noOwner`,
/// `.cancelled` once cancelled. Cancelling the consuming task, or `cancel()`, ends the X wait at
/// once; so does the fetch going away.
public final class X11SelectionFetch: AsyncSequence, Sendable {
    public typealias Element = [UInt8]
    public typealias Failure = X11Error

    private let channel: ChunkChannel

    /// Starts reading `selection` converted to `target` from `owner` (nil: whoever owns it).
    public init(display: X11Display, selection: String, target: String, owner: WindowID?, readSize: Int = 1 << 20, bufferedChunks: Int = 4) {
        let channel = ChunkChannel(capacity: bufferedChunks)
        self.channel = channel
        let started = BlockingWork.start {
            channel.finish(Self.read(display: display, selection: selection, target: target, owner: owner, readSize: readSize, into: channel))
        }
        if !started { channel.finish(.connectFailed(display: display.displayName ?? "$DISPLAY", reason: "no thread for the X connection")) }
    }

    deinit { channel.cancel() }

    /// The next chunk, nil after the last; cancelling the calling task cancels the fetch.
    public func next() async throws(X11Error) -> [UInt8]? {
        let channel = channel
        let result = await withTaskCancellationHandler { () async -> Result<[UInt8]?, X11Error> in
            do throws(X11Error) { return .success(try await channel.next()) } catch { return .failure(error) }
        } onCancel: {
            channel.cancel()
        }
        return try result.get()
    }

    /// Stops the fetch: the X side's wait ends, and a waiting or later `next` throws `.cancelled`.
    public func cancel() { channel.cancel() }

    public struct AsyncIterator: AsyncIteratorProtocol {
        let fetch: X11SelectionFetch
        public mutating func next() async throws(X11Error) -> [UInt8]? { try await fetch.next() }
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(X11Error) -> [UInt8]? { try await fetch.next() }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(fetch: self) }

    /// The X side, on its own thread: reads `target` from `owner`, chunk by chunk into
    /// `channel`. Returns the error that ended it, nil when every byte was read.
    private static func read(
        display: X11Display, selection: String, target: String, owner: WindowID?, readSize: Int, into channel: ChunkChannel
    ) -> X11Error? {
        let connection: X11Connection
        do throws(X11Error) { connection = try display.connect() } catch { return error }
        defer { connection.close() }
        channel.attach(connection.cancellation)
        do throws(X11Error) {
            let reader = try SelectionReader(connection: connection, timeout: display.ownerTimeout)
            reader.readSize = readSize
            if let owner {
                let atom = try connection.atom(selection)
                let current = try X11Reply.getSelectionOwnerChecked(connection.roundTrip(.getSelectionOwner(atom), timeout: display.ownerTimeout))
                guard current == owner else { return .ownerGone(selection: selection) }
            }
            var stopped: X11Error?
            do throws(X11Error) {
                try reader.read(selection: selection, target: target) { chunk in
                    do throws(X11Error) { try channel.send(chunk) } catch {
                        stopped = error
                        throw error
                    }
                }
            } catch {
                if let stopped { return stopped }
                throw error
            }
            return nil
        } catch {
            return error
        }
    }
}

import Logging
import NIOCore
import PasteboardProtocol
import PasteboardSystem
import PasteboardTypes

/// What happens when a source relinquishes its promises before it leaves (like the X11
/// clipboard manager's SAVE_TARGETS): the daemon asks it for the bytes of every representation
/// it still promises, best first, and keeps them, up to a budget per pasteboard. What does not
/// fit becomes unavailable with an error that says so.
struct OwnerCapture: Sendable {
    let source: any PromiseOwner
    let store: PasteboardStore
    /// Bytes the daemon keeps per pasteboard.
    let budget: Int
    let logger: Logger

    /// Captures everything that fits; returns the number of representations captured.
    @discardableResult
    func run() async -> Int {
        var remaining: [String: Int] = [:]
        var captured = 0
        var touched = Set<String>()
        for owned in await store.promises(ownedBy: source) {
            touched.insert(owned.pasteboard)
            let left = remaining[owned.pasteboard] ?? budget
            if let size = owned.size, size > left {
                await store.settle(owned, with: .unavailable(overBudget(owned, size: size, left: left)), size: nil)
                continue
            }
            switch await capture(owned, limit: left) {
            case .success(let (content, size)):
                remaining[owned.pasteboard] = left - size
                await store.settle(owned, with: content, size: size)
                captured += 1
            case .failure(let error):
                remaining[owned.pasteboard] = left
                await store.settle(owned, with: .unavailable(error.message), size: nil)
            }
        }
        for name in touched.sorted() { await store.storeAgain(name, logger: logger) }
        logger.info("captured promised data of a leaving source", metadata: [
            "source": "\(source)", "captured": "\(captured)",
        ])
        return captured
    }

    /// The bytes of `owned`, at most `limit`: stored on disk as they arrive (as a write's are,
    /// see `IncomingBytes`) unless the item is sensitive or the daemon keeps nothing on disk,
    /// so a large capture costs disk, not memory, and the source's credit follows the disk.
    private func capture(_ owned: PasteboardStore.OwnedPromise, limit: Int) async -> Result<(StoredRepresentation.Content, Int), ProtocolError> {
        let relay: Relay
        do {
            relay = try await source.produce(ProduceRequest(
                promise: owned.promise.id, pasteboard: owned.pasteboard, item: owned.item,
                type: owned.type.rawValue, capture: true
            ))
        } catch {
            return .failure(ProtocolError(.sourceUnavailable, "\(source) left without handing over \(owned.type): \(error.message)"))
        }
        let source = source
        let bytes = IncomingBytes(place: owned.isSensitive ? nil : store.spoolPlace(forPasteboard: owned.pasteboard), expected: owned.size) { written in
            if let credit = relay.consumed(written) { await source.grant(credit, to: relay) }
        }
        var total = 0
        do {
            while true {
                switch try await relay.next() {
                case .size(let bytes):
                    if bytes > limit {
                        let error = ProtocolError(.sourceUnavailable, overBudget(owned, size: bytes, left: limit))
                        await source.finish(relay, with: .error(ProtocolError(.tooLarge, error.message)))
                        return .failure(error)
                    }
                case .data(let chunk):
                    total += chunk.readableBytes
                    if total > limit {
                        let error = ProtocolError(.sourceUnavailable, overBudget(owned, size: nil, left: limit))
                        await bytes.abort()
                        await source.finish(relay, with: .error(ProtocolError(.tooLarge, error.message)))
                        return .failure(error)
                    }
                    let held: Int
                    do {
                        held = try bytes.append(chunk)
                    } catch {
                        await bytes.abort()
                        await source.finish(relay, with: .error(error))
                        return .failure(ProtocolError(.sourceUnavailable, "\(owned.type) was not kept: \(error.message)"))
                    }
                    if held > 0, let credit = relay.consumed(held) { await source.grant(credit, to: relay) }
                case .end:
                    if let size = owned.size, size != total {
                        let error = ProtocolError(.sourceUnavailable, "\(source) produced \(total) of the \(size) bytes it declared for \(owned.type)")
                        await bytes.abort()
                        await source.finish(relay, with: .error(ProtocolError(.invalidArgument, error.message)))
                        return .failure(error)
                    }
                    let content: StoredRepresentation.Content
                    do {
                        content = try await bytes.finish()
                    } catch {
                        await source.finish(relay, with: .error(error))
                        return .failure(ProtocolError(.sourceUnavailable, "\(owned.type) was not kept: \(error.message)"))
                    }
                    await source.finish(relay, with: .ok(OK()))
                    return .success((content, total))
                }
            }
        } catch {
            await bytes.abort()
            let error = error as? ProtocolError ?? ProtocolError(.cancelled, "the capture was cancelled")
            await source.finish(relay, with: .error(ProtocolError(.cancelled, error.message)))
            return .failure(ProtocolError(.sourceUnavailable, "\(source) left without handing over \(owned.type): \(error.message)"))
        }
    }

    private func overBudget(_ owned: PasteboardStore.OwnedPromise, size: Int?, left: Int) -> String {
        let what = size.map { "its \(ByteCount.describe($0))" } ?? "more than \(ByteCount.describe(left))"
        return "\(source) left, and \(owned.type) was not kept: \(what) exceed the \(ByteCount.describe(budget)) capture budget of pasteboard '\(owned.pasteboard)'"
            + (left < budget ? " (\(ByteCount.describe(left)) of it remained)" : "")
    }
}

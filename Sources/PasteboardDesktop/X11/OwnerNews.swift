import Synchronization

/// What the importer's watcher thread hands its async side, in order: the newest offer not yet
/// put on the pasteboard (only the newest matters: one that arrives while the last is being
/// written replaces any that waits), and whether the owner left after it. The owner leaving is
/// kept apart from the offer rather than queued after it, so a waiting offer is never dropped
/// for it, and it comes after that offer's write (`SelectionVacancy` needs the change count of
/// the write). A new owner's offer cancels an owner-left that waits: somebody owns the
/// selection again.
final class OwnerNews: Sendable {
    enum Item: Sendable {
        case offer(OwnerOffer)
        case ownerLeft
        /// The owner of when the watch started has been looked at (its offer, if any, comes first).
        case settled
    }

    private struct State {
        var offer: OwnerOffer?
        var ownerLeft = false
        var settled = false
        var failure: DesktopImportError?
    }

    private let state = Mutex(State())
    private let wakeups: AsyncStream<Void>
    private let wake: AsyncStream<Void>.Continuation

    init() {
        (wakeups, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// The watcher: a new owner's offer.
    func post(_ offer: OwnerOffer) {
        state.withLock { state in
            state.offer = offer
            state.ownerLeft = false
        }
        wake.yield()
    }

    /// The watcher: the owner of when the watch started has been looked at.
    func postSettled() {
        state.withLock { $0.settled = true }
        wake.yield()
    }

    /// The watcher: the selection has no owner now.
    func postOwnerLeft() {
        state.withLock { $0.ownerLeft = true }
        wake.yield()
    }

    /// The watcher ended (with `failure`, or cancelled).
    func finish(throwing failure: DesktopImportError? = nil) {
        state.withLock { $0.failure = failure }
        wake.finish()
    }

    /// Calls `body` with each item in order until the watcher finished; throws its failure.
    func forEach(_ body: (Item) async throws -> Void) async throws {
        for await _ in wakeups {
            for item in take() { try await body(item) }
        }
        for item in take() { try await body(item) }
        if let failure = state.withLock({ $0.failure }) { throw failure }
    }

    private func take() -> [Item] {
        state.withLock { state in
            var items: [Item] = []
            if let offer = state.offer { items.append(.offer(offer)) }
            if state.ownerLeft { items.append(.ownerLeft) }
            if state.settled { items.append(.settled) }
            state.offer = nil
            state.ownerLeft = false
            state.settled = false
            return items
        }
    }
}

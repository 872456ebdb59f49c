/// The debounce of a selection that changes with every mouse movement (the primary
/// selection): an offer is imported only once no newer one arrived for `quiet`, so dragging
/// over a paragraph makes one pasteboard change, not one per character.
///
/// `settles` waits `quiet` after the offer arrived and then asks whether it is still the
/// newest; a newer one replaced it meanwhile and is judged in its turn. Pure apart from the
/// sleep: the current offer comes from `current`, so it is testable without a compositor.
struct OfferDebounce: Sendable {
    /// How long an offer must stay the newest; nil imports every offer at once.
    let quiet: Duration?

    /// Whether the offer `serial` is still the newest (`current()`) after `quiet`. Throws
    /// `CancellationError` when the task is cancelled during the wait.
    func settles(_ serial: UInt64, current: () -> UInt64?) async throws -> Bool {
        guard let quiet, quiet > .zero else { return current() == serial }
        try await Task.sleep(for: quiet)
        return current() == serial
    }
}

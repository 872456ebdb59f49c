public import PasteboardTypes

/// Which changes of a pasteboard the bridge made itself, so the desktop side does not take the
/// selection back for them: without it, an application's copy would come in (the importer
/// writes the pasteboard), go out again (the exporter owns the selection for that change),
/// come in again as a new owner, and so on forever.
///
/// The importer brackets each write with `beginImport()` and `endImport(changeCount:)`; the
/// exporter asks `isOwnChange(_:)` for every change it hears of. The daemon may report the
/// change before the write's answer reaches the importer, so the question waits while a write
/// is in flight, and the answer is then exact. One instance per pasteboard, shared by the
/// importer and the exporter of that selection.
public actor BridgeEcho {
    private var writesInFlight = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []
    /// The change counts of the bridge's latest writes (a few: changes are reported in order,
    /// so an old count is never asked about again after a newer one was answered).
    private var ownChangeCounts: [Int] = []
    /// For each of those, the types whose bytes the write carried itself (captured), in the
    /// item's order: what still pastes after the desktop owner left (`SelectionVacancy`).
    private var keptTypes: [Int: [TypeIdentifier]] = [:]
    private static let remembered = 16

    public init() {}

    /// A write of the bridge's own is about to be sent.
    public func beginImport() {
        writesInFlight += 1
    }

    /// The write begun last ended: with its change count, or nil when it failed; `kept` are the
    /// types whose bytes it carried (not promises of the desktop owner).
    public func endImport(changeCount: Int?, kept: [TypeIdentifier] = []) {
        if let changeCount {
            ownChangeCounts.append(changeCount)
            keptTypes[changeCount] = kept
            if ownChangeCounts.count > Self.remembered {
                for forgotten in ownChangeCounts.prefix(ownChangeCounts.count - Self.remembered) { keptTypes[forgotten] = nil }
                ownChangeCounts.removeFirst(ownChangeCounts.count - Self.remembered)
            }
        }
        writesInFlight = max(0, writesInFlight - 1)
        if writesInFlight == 0 {
            let resumed = waiting
            waiting = []
            for continuation in resumed { continuation.resume() }
        }
    }

    /// Adds `types` to what the bridge's own change `changeCount` keeps: the clipboard manager
    /// settled that import's promises with the data the application handed over at exit, so
    /// those types too still paste once the application is gone. Ignored for other changes.
    public func markKept(_ types: [TypeIdentifier], of changeCount: Int) {
        guard var kept = keptTypes[changeCount] else { return }
        for type in types where !kept.contains(type) { kept.append(type) }
        keptTypes[changeCount] = kept
    }

    /// Whether the change with `changeCount` is one the bridge wrote itself (waits until no
    /// write of the bridge is in flight).
    public func isOwnChange(_ changeCount: Int) async -> Bool {
        while writesInFlight > 0 {
            await withCheckedContinuation { waiting.append($0) }
        }
        return ownChangeCounts.contains(changeCount)
    }

    /// The types the bridge's own write `changeCount` carried itself; nil when that change is
    /// not one of the bridge's (waits like `isOwnChange(_:)`).
    public func keptTypes(of changeCount: Int) async -> [TypeIdentifier]? {
        guard await isOwnChange(changeCount) else { return nil }
        return keptTypes[changeCount]
    }
}

import Synchronization

/// Removes spool files nothing refers to any more.
///
/// A file no archive ever named (a failed write, a scratch spool, a content replaced before
/// it was committed) is unlinked at once on `SpoolIO`. A named one waits: a stale journal
/// record or archive could still name it, and removing it then would turn that record's
/// fallback into "missing" after a damaged newer record. `StorageWriter` takes the named ones
/// (`takeNamed`) after its next checkpoint, when nothing on disk names them, and removes them
/// (`remove`), which also syncs `data/`.
final class SpoolReclaimer: Sendable {
    /// A released file: its name and the directory it is in.
    struct Released: Sendable {
        let name: String
        let directory: SpoolDirectory
    }

    private struct State {
        var named: [Released] = []
        var removals: [Int: Task<Void, Never>] = [:]
        var nextRemoval = 0
        var scheduler: (@Sendable () -> Void)?
    }

    private let io: SpoolIO
    private let state = Mutex(State())

    init(io: SpoolIO) {
        self.io = io
    }

    /// Sets what to call when a named file is released (`StorageWriter.scheduleReclaim`).
    func schedule(with scheduler: @escaping @Sendable () -> Void) {
        state.withLock { $0.scheduler = scheduler }
    }

    /// The last reference to a spool file died (`SpoolFile.deinit`).
    func release(_ released: Released, named: Bool) {
        if named {
            let scheduler = state.withLock { state in
                state.named.append(released)
                return state.scheduler
            }
            scheduler?()
        } else {
            remove([released], syncs: false)
        }
    }

    /// The named files released since the last call, for the caller to `remove` after a
    /// checkpoint (or to `putBack` when the checkpoint failed).
    func takeNamed() -> [Released] {
        state.withLock { state in
            defer { state.named = [] }
            return state.named
        }
    }

    /// Returns files `takeNamed` gave out that could not be removed yet (the checkpoint
    /// failed): they wait for the next one.
    func putBack(_ released: [Released]) {
        state.withLock { $0.named.append(contentsOf: released) }
    }

    /// Unlinks `released` on `SpoolIO`, then syncs their directories when `syncs` (a named
    /// file's removal must last; an unnamed file's name never mattered to any record).
    func remove(_ released: [Released], syncs: Bool = true) {
        guard !released.isEmpty else { return }
        let io = io
        state.withLock { state in
            let key = state.nextRemoval
            state.nextRemoval += 1
            state.removals[key] = Task { [weak self] in
                _ = try? await io.run {
                    for file in released { file.directory.remove(file.name) }
                    if syncs, let directory = released.first?.directory { _ = directory.sync() }
                }
                _ = self?.state.withLock { $0.removals.removeValue(forKey: key) }
            }
        }
    }

    /// Waits until every removal started so far is done (for shutdown and tests).
    func settle() async {
        let pending = state.withLock { Array($0.removals.values) }
        for removal in pending { await removal.value }
    }
}

import PasteboardProtocol
import Synchronization

/// Removes spool files nothing refers to any more.
///
/// A file no archive ever named (a failed write, a scratch spool, a content replaced before
/// it was committed) is unlinked at once on `SpoolIO`. A named one waits: a stale journal
/// record or archive could still name it, and removing it then would turn that record's
/// fallback into "missing" after a damaged newer record. `StorageWriter` takes the named ones
/// (`takeNamed`) at its next checkpoint and removes them once it succeeded, when nothing on disk
/// names them (`remove`, which also syncs `data/`); a checkpoint is asked for when released
/// files add up to `SpoolPolicy.reclaimBytes` first.
final class SpoolReclaimer: Sendable {
    /// A released file: its name and the directory it is in.
    struct Released: Sendable {
        let name: String
        let directory: SpoolDirectory
        /// The file's size, which counts towards `SpoolPolicy.reclaimBytes`.
        var size = 0
    }

    private struct State {
        var named: [Released] = []
        var namedBytes = 0
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
            let scheduler = state.withLock { state -> (@Sendable () -> Void)? in
                state.named.append(released)
                state.namedBytes = state.namedBytes.addingSaturating(released.size)
                guard state.namedBytes >= SpoolPolicy.reclaimBytes else { return nil }
                state.namedBytes = 0  // asked once: the checkpoint takes them all
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
            defer {
                state.named = []
                state.namedBytes = 0
            }
            return state.named
        }
    }

    /// Returns files `takeNamed` gave out that could not be removed yet (the checkpoint
    /// failed): they wait for the next one.
    func putBack(_ released: [Released]) {
        state.withLock { state in
            state.named.append(contentsOf: released)
            state.namedBytes = released.reduce(state.namedBytes) { $0.addingSaturating($1.size) }
        }
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

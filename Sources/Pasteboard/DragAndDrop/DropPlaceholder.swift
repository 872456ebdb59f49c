/// A collection an app shows while a drop loads (UIKit's UICollectionViewDropPlaceholder): it
/// inserts a pending entry at once, then commits the loaded entry wherever the placeholder
/// stands by then (other edits may have moved it) or deletes the placeholder on failure.
public protocol DropPlaceholderHost: Sendable {
    /// What a finished load becomes in the collection.
    associatedtype Entry: Sendable

    /// Inserts a placeholder at `index` (nil: at the end); returns its identifier.
    func insertPlaceholder(titled title: String, at index: Int?) async throws -> String
    /// Replaces placeholder `id` with `entry` where it now stands; returns that index. Throws
    /// when the placeholder is gone (the host then discards what `entry` holds).
    func commitPlaceholder(_ id: String, with entry: Entry) async throws -> Int
    /// Removes placeholder `id` (nothing happens when it is already gone).
    func deletePlaceholder(_ id: String) async
}

/// Runs one placeholder's life: inserts it into `host` at `index`, runs `load` (which gets the
/// placeholder's id), then commits the entry `load` returns, or deletes the placeholder when
/// `load` (or the commit) throws or the task is cancelled, and rethrows. Returns the index the
/// entry was committed at.
///
/// Callable from any isolation: `load` runs on the caller's executor (a `@MainActor` list
/// loads its drop with a closure that uses its state).
nonisolated(nonsending) public func withDropPlaceholder<Host: DropPlaceholderHost>(
    in host: Host, titled title: String, at index: Int?,
    load: nonisolated(nonsending) (_ placeholder: String) async throws -> Host.Entry
) async throws -> Int {
    let id = try await host.insertPlaceholder(titled: title, at: index)
    do {
        let entry = try await load(id)
        try Task.checkCancellation()
        return try await host.commitPlaceholder(id, with: entry)
    } catch {
        await host.deletePlaceholder(id)
        throw error
    }
}

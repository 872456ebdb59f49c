import PasteboardTypes

/// The loads `Pasteboard` and `PerformedDrop` offer their callers: each runs off the caller's
/// executor, with `progress` called on it (see `ProgressRelay`), so a `@MainActor` view model
/// may update its state from the closure while the bytes are received elsewhere.
extension RepresentationLoader {
    /// `loadData(item:accepting:progress:)`, relayed.
    nonisolated(nonsending) func relayedData(
        item: Int, accepting: [TypeIdentifier], progress: (LoadProgress) -> Void
    ) async throws -> (representation: LoadedRepresentation, bytes: [UInt8]) {
        try await ProgressRelay.run(reporting: progress) { report in
            let (header, bytes) = try await loadData(item: item, accepting: accepting, progress: report)
            return (LoadedRepresentation(header), bytes)
        }
    }

    /// `loadFile(item:accepting:openInPlace:directory:progress:)`, relayed.
    nonisolated(nonsending) func relayedFile(
        item: Int, accepting: [TypeIdentifier], openInPlace: Bool = false, directory: String?, progress: (LoadProgress) -> Void
    ) async throws -> LoadedFile {
        try await ProgressRelay.run(reporting: progress) { report in
            try await loadFile(item: item, accepting: accepting, openInPlace: openInPlace, directory: directory, progress: report)
        }
    }

    /// `load(_:item:progress:)` of a `Transferable`, relayed.
    nonisolated(nonsending) func relayed<T: Transferable>(
        _ type: T.Type, item: Int, progress: (LoadProgress) -> Void
    ) async throws -> (value: T, representation: LoadedRepresentation) {
        try await ProgressRelay.run(reporting: progress) { report in
            try await load(type, item: item, progress: report)
        }
    }
}

import Pasteboard

/// What an exporter acts on, one at a time in the order they came: the pasteboard's changes
/// (its watch: the contents as they are, then each change), the desktop selection's owner
/// leaving after an import (`SelectionVacancy`), and the type mapping changing with the
/// daemon's registry (`FollowedTypeMapping`: what it offers may now have other names).
enum ExporterInput: Sendable {
    case changed(PasteboardContents)
    case ownerLeft(afterImport: Int)
    case mappingChanged

    /// The sources merged into one stream: it ends (or throws) when the pasteboard's watch
    /// does, and stops them all when its consumer stops.
    static func stream(board: Pasteboard, vacancy: SelectionVacancy, mappings: FollowedTypeMapping) -> AsyncThrowingStream<ExporterInput, any Error> {
        let (stream, sink) = AsyncThrowingStream.makeStream(of: ExporterInput.self)
        let vacancies = vacancy.vacancies()
        let mappingChanges = mappings.changes()
        let changes = Task {
            do {
                for try await contents in board.changes() { sink.yield(.changed(contents)) }
                sink.finish()
            } catch {
                sink.finish(throwing: error)
            }
        }
        let left = Task {
            for await changeCount in vacancies { sink.yield(.ownerLeft(afterImport: changeCount)) }
        }
        let remapped = Task {
            for await _ in mappingChanges { sink.yield(.mappingChanged) }
        }
        sink.onTermination = { _ in
            changes.cancel()
            left.cancel()
            remapped.cancel()
        }
        return stream
    }
}

/// An exporter's record of the owner-left signals that wait for their import to reach its
/// watch, and the decision each one comes to: pure, so it is testable without a display.
struct VacancyFollower: Sendable {
    /// The import whose owner left, not yet seen on the pasteboard's watch.
    private(set) var waitingFor: Int?

    /// The owner left after import `changeCount` while the watch is at `current`: the change
    /// to offer now (the pasteboard holds that import), or nil (it moved on; or it has not
    /// reached that import yet, which `reached(_:)` then answers).
    mutating func ownerLeft(afterImport changeCount: Int, current: Int?) -> Int? {
        guard let current, current >= changeCount else {
            waitingFor = changeCount
            return nil
        }
        waitingFor = nil
        return current == changeCount ? changeCount : nil
    }

    /// The watch reached `changeCount`: true when it is the import whose owner already left.
    mutating func reached(_ changeCount: Int) -> Bool {
        guard let waiting = waitingFor, changeCount >= waiting else { return false }
        waitingFor = nil
        return changeCount == waiting
    }
}

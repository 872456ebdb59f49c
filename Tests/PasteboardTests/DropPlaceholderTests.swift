import Pasteboard
import Synchronization
import Testing

/// A list of strings where placeholders are "…id" entries.
private final class ListHost: DropPlaceholderHost, Sendable {
    let entries = Mutex<[String]>(["a", "b"])
    private let counter = Atomic(0)

    func insertPlaceholder(titled title: String, at index: Int?) async throws -> String {
        let id = "…\(counter.add(1, ordering: .relaxed).newValue)"
        entries.withLock { $0.insert(id, at: min(index ?? $0.count, $0.count)) }
        return id
    }

    func commitPlaceholder(_ id: String, with entry: String) async throws -> Int {
        try entries.withLock { entries in
            guard let index = entries.firstIndex(of: id) else { throw PlaceholderGone() }
            entries[index] = entry
            return index
        }
    }

    func deletePlaceholder(_ id: String) async {
        entries.withLock { $0.removeAll { $0 == id } }
    }
}

private struct PlaceholderGone: Error {}
private struct LoadFailed: Error {}

@Suite("Drop placeholders")
struct DropPlaceholderTests {
    @Test("the entry is committed where the placeholder stands after other edits")
    func commitsWhereThePlaceholderNowStands() async throws {
        let host = ListHost()
        let index = try await withDropPlaceholder(in: host, titled: "photo", at: 1) { id in
            #expect(host.entries.withLock { $0 } == ["a", id, "b"])
            host.entries.withLock { $0.insert("new", at: 0) }  // another edit moves the placeholder
            return "photo"
        }
        #expect(index == 2)
        #expect(host.entries.withLock { $0 } == ["new", "a", "photo", "b"])
    }

    @Test("a failed load deletes the placeholder and rethrows")
    func failureDeletesThePlaceholder() async {
        let host = ListHost()
        await #expect(throws: LoadFailed.self) {
            try await withDropPlaceholder(in: host, titled: "photo", at: nil) { _ in throw LoadFailed() }
        }
        #expect(host.entries.withLock { $0 } == ["a", "b"])
    }

    @Test("a cancelled load deletes the placeholder")
    func cancellationDeletesThePlaceholder() async {
        let host = ListHost()
        let task = Task {
            try await withDropPlaceholder(in: host, titled: "photo", at: 0) { _ in
                try await Task.sleep(for: .seconds(60))
                return "never"
            }
        }
        while host.entries.withLock({ $0.count }) < 3 { await Task.yield() }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(host.entries.withLock { $0 } == ["a", "b"])
    }
}

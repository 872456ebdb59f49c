@testable import Pasteboard
import PasteboardProtocol
import PasteboardTypes
import Testing

/// A drop adds up the sizes the items' sources declared; a source may declare up to Int.max,
/// and the sum must saturate rather than trap in `pb drop` or `gallery drop`.
@Suite("Drop progress")
struct DropProgressTests {
    private func item(_ index: Int, size: Int?) -> PasteboardItem {
        PasteboardItem(index: index, changeCount: 1,
                       info: ItemInfo(representations: [RepresentationInfo(type: "public.data", size: size, promise: index)]),
                       registry: .builtIn)
    }

    @Test("sizes of Int.max each add up to Int.max")
    func saturates() {
        var tracker = DropProgress.Tracker(items: [item(0, size: .max), item(1, size: .max)], accepting: [.data])
        let first = tracker.update(item: 0, LoadProgress(completed: .max, total: .max))
        #expect(first.overall.total == .max)
        let second = tracker.update(item: 1, LoadProgress(completed: .max, total: .max))
        #expect(second.overall.completed == .max)
        #expect(second.overall.fractionCompleted == 1)
    }

    @Test("ordinary sizes add up exactly")
    func exact() {
        var tracker = DropProgress.Tracker(items: [item(0, size: 10), item(1, size: 30)], accepting: [.data])
        _ = tracker.update(item: 0, LoadProgress(completed: 10, total: 10))
        let progress = tracker.update(item: 1, LoadProgress(completed: 5, total: 30))
        #expect(progress.overall == LoadProgress(completed: 15, total: 40))
    }
}

import Pasteboard
import Testing

/// Progress counts come from the daemon: whatever they say, the fraction a bar is drawn from
/// stays within 0...1.
@Suite("Load progress")
struct LoadProgressTests {
    @Test("the fraction is completed over total", arguments: [(0, 10, 0.0), (5, 10, 0.5), (10, 10, 1.0)])
    func fraction(completed: Int, total: Int, expected: Double) {
        #expect(LoadProgress(completed: completed, total: total).fractionCompleted == expected)
    }

    @Test("counts out of order or out of range never leave 0...1", arguments: [
        (20, 10), (-5, 10), (5, -10), (Int.max, 1), (Int.min, Int.max), (7, 0),
    ])
    func clamped(completed: Int, total: Int) throws {
        let fraction = try #require(LoadProgress(completed: completed, total: total).fractionCompleted)
        #expect((0...1).contains(fraction))
    }

    @Test("an unknown total has no fraction")
    func unknown() {
        #expect(LoadProgress(completed: 5, total: nil).fractionCompleted == nil)
    }
}

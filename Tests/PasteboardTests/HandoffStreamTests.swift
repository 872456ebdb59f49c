#if canImport(Glibc)
import Glibc
#endif
import NIOCore
@testable import Pasteboard
import XCTest

/// A handed-off load waits for its source off the caller's executor (issue 40): `drain` is
/// `nonisolated(nonsending)`, so it runs on the caller's actor, and its waits must not.
final class HandoffStreamTests: XCTestCase {
    /// A connected pair: the stream's end, and the source's end the test writes (or not).
    private func pair() throws -> (stream: Int32, source: Int32) {
        var ends: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0 else { throw XCTSkip("no socket pair") }
        return (ends[0], ends[1])
    }

    /// A `@MainActor` caller loading from a source that stalls still gets its main actor's
    /// other work done: 20 hops onto the main actor take a few milliseconds, where a wait that
    /// polled on the main actor in 20 ms slices held each for up to a slice.
    @MainActor
    func testAMainActorCallerLoadingFromAStalledSourceKeepsItsMainActor() async throws {
        let (end, source) = try pair()
        let loading = Task { @MainActor in
            try await HandoffStream(end).drain(total: nil, progress: { _ in }, chunk: { _ in })
        }
        // Let the load reach its wait.
        try await Task.sleep(for: .milliseconds(50))
        let elapsed = await Task.detached {
            let clock = ContinuousClock()
            let start = clock.now
            for _ in 0..<20 { await MainActor.run {} }
            return clock.now - start
        }.value
        XCTAssertLessThan(elapsed, .milliseconds(150), "the main actor was held while the load waited")
        var byte: UInt8 = 7
        XCTAssertEqual(write(source, &byte, 1), 1)
        close(source)
        let count = try await loading.value
        XCTAssertEqual(count, 1)
    }

    /// Cancelling a load that waits for a silent source ends it at once.
    func testCancellingAWaitingLoadEndsItAtOnce() async throws {
        let (end, source) = try pair()
        defer { close(source) }
        let loading = Task {
            try await HandoffStream(end).drain(total: nil, progress: { _ in }, chunk: { _ in })
        }
        try await Task.sleep(for: .milliseconds(50))
        let clock = ContinuousClock()
        let start = clock.now
        loading.cancel()
        do {
            _ = try await loading.value
            XCTFail("a cancelled load returned")
        } catch is CancellationError {}
        XCTAssertLessThan(clock.now - start, .seconds(2))
    }
}

import PasteboardSystem
import Synchronization
import XCTest

#if canImport(Glibc)
import Glibc
#endif

final class BlockingWorkTests: XCTestCase {
    private struct Refused: Error, Equatable { let reason: String }

    func testRunReturnsTheJobsValueAndItsTypedError() async {
        let value = await BlockingWork.run { 6 * 7 }
        XCTAssertEqual(value, 42)
        do {
            _ = try await BlockingWork.run { () throws(Refused) -> Int in throw Refused(reason: "no") }
            XCTFail("the job threw")
        } catch {
            XCTAssertEqual(error, Refused(reason: "no"))
        }
    }

    /// Long-lived loops (an X11 connection's, Wayland's) hold their threads; a short job started
    /// after more of them than there are cores still runs at once: it gets a thread of its own.
    func testLoopsThatNeverEndDoNotStarveAShortJob() async {
        let release = DispatchGate()
        let loops = 2 * max(2, ProcessInfo.processInfo.activeProcessorCount) + 2
        for _ in 0..<loops { BlockingWork.start { release.wait() } }
        let clock = ContinuousClock()
        let start = clock.now
        let value = await BlockingWork.run { "ran" }
        XCTAssertEqual(value, "ran")
        XCTAssertLessThan(clock.now - start, .seconds(5))
        XCTAssertGreaterThanOrEqual(BlockingWork.threadCount, loops)
        release.open()
    }

    /// A thread that finished its job takes the next one instead of a new thread being made.
    func testAnIdleThreadIsReused() async {
        _ = await BlockingWork.run { 1 }
        let before = BlockingWork.threadCount
        for _ in 0..<20 { _ = await BlockingWork.run { 1 } }
        XCTAssertLessThanOrEqual(BlockingWork.threadCount, before + 1)
    }

    func testASerialQueueRunsItsJobsInOrderOneAtATime() async {
        let queue = BlockingQueue()
        let log = Mutex<[Int]>([])
        let running = Atomic(0)
        let overlapped = Atomic(false)
        for index in 0..<50 {
            queue.submit {
                if running.add(1, ordering: .relaxed).newValue > 1 { overlapped.store(true, ordering: .relaxed) }
                usleep(200)
                log.withLock { $0.append(index) }
                running.subtract(1, ordering: .relaxed)
            }
        }
        let last = await queue.run { log.withLock { $0.count } }
        XCTAssertEqual(last, 50)
        XCTAssertEqual(log.withLock { $0 }, Array(0..<50))
        XCTAssertFalse(overlapped.load(ordering: .relaxed))
    }

    func testAWideQueueRunsAtMostItsWidthAtOnce() async {
        let queue = BlockingQueue(width: 3)
        let running = Atomic(0)
        let most = Atomic(0)
        for _ in 0..<30 {
            queue.submit {
                let now = running.add(1, ordering: .relaxed).newValue
                _ = most.max(now, ordering: .relaxed)
                usleep(1_000)
                running.subtract(1, ordering: .relaxed)
            }
        }
        await queue.waitUntilIdle()
        XCTAssertEqual(running.load(ordering: .relaxed), 0)
        XCTAssertLessThanOrEqual(most.load(ordering: .relaxed), 3)
        XCTAssertGreaterThan(most.load(ordering: .relaxed), 1)
    }

    /// Cancelling the awaiting task does not stop a job that blocks: the task waits for it.
    func testACancelledCallerWaitsForItsJob() async {
        let finished = Atomic(false)
        let task = Task {
            await BlockingWork.run {
                usleep(50_000)
                finished.store(true, ordering: .relaxed)
            }
            return finished.load(ordering: .relaxed)
        }
        task.cancel()
        let sawItFinish = await task.value
        XCTAssertTrue(sawItFinish)
    }
}

/// A gate blocking threads until opened: they read a pipe whose write end `open` closes.
private final class DispatchGate: Sendable {
    private let readEnd: Int32
    private let writeEnd: Int32

    init() {
        var ends: [Int32] = [-1, -1]
        precondition(pipe(&ends) == 0)
        (readEnd, writeEnd) = (ends[0], ends[1])
    }

    deinit { close(readEnd) }

    func wait() {
        var byte: UInt8 = 0
        while read(readEnd, &byte, 1) < 0, errno == EINTR {}
    }

    func open() { close(writeEnd) }
}

import Glibc
import Pasteboard
import TestSupport
import XCTest

/// A signal caught while nobody waits for one (before the first wait, or between two) is given
/// to the next waiter instead of being dropped: a Ctrl-C early in `pb copy --lazy` or in
/// `LiveSource.runUntilReplacedOrInterrupted` is acted on.
final class SignalsTests: XCTestCase {
    func testASignalCaughtWhileNobodyWaitedReachesTheNextWaiter() async throws {
        // The handler is installed and its reader running, with nobody waiting (a wait that ended).
        let fd = try XCTUnwrap(Signals.interruptDescriptor())
        let first = Task { await Signals.next() }
        first.cancel()
        _ = await first.value

        // Delivered to this thread, unblocked for the moment (a pool thread blocks signals):
        // the handler runs before raise returns.
        var interrupt = sigset_t(), previous = sigset_t()
        sigemptyset(&interrupt)
        sigaddset(&interrupt, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &interrupt, &previous)
        XCTAssertEqual(raise(SIGINT), 0)
        pthread_sigmask(SIG_SETMASK, &previous, nil)
        // The reader takes the byte from the pipe (no one listens then).
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        XCTAssertTrue(eventually(timeout: 5) { entry.revents = 0; return poll(&entry, 1, 0) == 0 }, "the signal was never read from the pipe")

        // The next waiter still gets it, at once.
        let next = Task { await Signals.next() }
        let timeout = Task {
            try? await Task.sleep(for: .seconds(5))
            next.cancel()
        }
        let signal = await next.value
        timeout.cancel()
        XCTAssertEqual(signal, SIGINT, "the SIGINT caught while nobody waited was lost")
    }
}

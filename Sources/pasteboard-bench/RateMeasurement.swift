import Pasteboard
import PasteboardTypes

/// What the clients of one request-rate measurement share, whichever connection they drive (a
/// task on `PasteboardConnection`, a thread on `BlockingConnection`): their rounds, each a
/// 16-byte item copied and then checked as pasted back, the requests those rounds counted, the
/// first failure, which stops every client, and the clock.
final class RateMeasurement: Sendable {
    private let requests = SharedCount()
    private let failure = FirstFailure()
    private let stopped = StopFlag()
    private let started = ContinuousClock.now

    /// The rounds of `client`, one after another until the measurement stops.
    func rounds(of client: Int) -> Rounds { Rounds(client: client, measurement: self) }

    /// Ends every client's rounds (each finishes the round it is in).
    func stop() { stopped.set() }

    /// Records the first failure and stops every client.
    func fail(_ error: any Error) {
        failure.record("\(error)")
        stop()
    }

    /// Requests (copies plus pastes) per second from the start to `end`; throws the first
    /// failure instead, if a client failed.
    func rate(endingAt end: ContinuousClock.Instant = .now) throws -> Double {
        if let message = failure.recorded { throw BenchError("request rate: \(message)") }
        return Double(requests.current) / Figure.seconds(end - started)
    }

    /// A client's rounds: round `sequence` copies `client-sequence-0123…` (16 bytes).
    struct Rounds: Sequence, IteratorProtocol {
        let client: Int
        let measurement: RateMeasurement
        private var sequence = 0

        init(client: Int, measurement: RateMeasurement) {
            self.client = client
            self.measurement = measurement
        }

        mutating func next() -> Round? {
            guard !measurement.stopped.isSet else { return nil }
            defer { sequence += 1 }
            let bytes = Array("\(client)-\(sequence)-0123456789abcdef".utf8.prefix(16))
            var item = ItemProvider()
            item.registerData(bytes, for: .utf8PlainText)
            return Round(client: client, item: item, bytes: bytes, requests: measurement.requests)
        }
    }

    /// One round: the item to copy, and the check of what was pasted back.
    struct Round {
        let client: Int
        /// The item to copy: `bytes` as plain text.
        let item: ItemProvider
        let bytes: [UInt8]
        fileprivate let requests: SharedCount

        /// Counts the round's two requests when `pasted` is what was copied; throws otherwise.
        func check(pasted: [UInt8]) throws {
            guard pasted == bytes else { throw BenchError("client \(client) pasted something else") }
            requests.add(2)
        }
    }
}

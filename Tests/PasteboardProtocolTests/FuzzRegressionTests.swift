import Foundation
import PasteboardFuzzing
import XCTest

/// Replays the committed fuzz inputs of the frame and message decoders (seeds, and every crash the
/// fuzzer found) through the same invariant checks `pasteboard-fuzz` runs. A broken invariant traps.
final class FuzzRegressionTests: XCTestCase {
    /// `Tests/Fixtures/fuzz`.
    private let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Tests/PasteboardProtocolTests
        .deletingLastPathComponent()  // Tests
        .appendingPathComponent("Fixtures/fuzz").path

    func testFrameDecoderKeepsItsInvariantsOnEveryCommittedInput() throws {
        try replay(.frames)
    }

    func testMessageDecoderKeepsItsInvariantsOnEveryCommittedInput() throws {
        try replay(.messages)
    }

    private func replay(_ target: FuzzTarget) throws {
        let inputs = try FuzzCorpus.committedInputs(of: target, in: fixtures)
        XCTAssertFalse(inputs.isEmpty, "no committed inputs for \(target)")
        for input in inputs {
            target.run(try FuzzCorpus.contents(of: input))
        }
    }
}

import Foundation
import PasteboardDaemonFuzzing
import PasteboardFuzzing
import XCTest

/// Replays the committed fuzz inputs of request handling (seeds, and every crash the fuzzer
/// found) through the same invariant checks `pasteboard-fuzz requests` runs. A broken invariant traps.
final class RequestFuzzRegressionTests: XCTestCase {
    /// `Tests/Fixtures/fuzz`.
    private let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Tests/PasteboardDaemonTests
        .deletingLastPathComponent()  // Tests
        .appendingPathComponent("Fixtures/fuzz").path

    func testRequestHandlingKeepsItsInvariantsOnEveryCommittedInput() throws {
        let inputs = try FuzzCorpus.committedInputs(ofTargetNamed: RequestFuzzing.name, in: fixtures)
        XCTAssertFalse(inputs.isEmpty, "no committed inputs for \(RequestFuzzing.name)")
        for input in inputs {
            _ = try FuzzCorpus.contents(of: input).withUnsafeBytes { RequestFuzzing.run($0) }
        }
    }
}

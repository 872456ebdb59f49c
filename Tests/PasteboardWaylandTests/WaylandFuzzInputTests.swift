import Foundation
import PasteboardFuzzing
import XCTest

/// Replays the committed fuzz inputs of the Wayland wire reader (seeds, and every crash the
/// fuzzer found) through the checks `pasteboard-fuzz wayland` runs. A broken invariant traps.
final class WaylandFuzzInputTests: XCTestCase {
    func testTheWaylandReaderKeepsItsInvariantsOnEveryCommittedInput() throws {
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/fuzz").path
        let inputs = try FuzzCorpus.committedInputs(of: .wayland, in: fixtures)
        XCTAssertGreaterThanOrEqual(inputs.count, 4, "the wayland seeds")
        for input in inputs {
            let summary = FuzzTarget.wayland.run(try FuzzCorpus.contents(of: input))
            XCTAssertFalse(summary.hasPrefix("0 decoded") || summary.contains("refused"), "\(input): a seed decodes: \(summary)")
        }
    }

    func testTheDataControlSessionKeepsItsInvariantsOnEveryCommittedScript() throws {
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/fuzz").path
        let inputs = try FuzzCorpus.committedInputs(of: .waylandSession, in: fixtures)
        XCTAssertGreaterThanOrEqual(inputs.count, 3, "the wayland-session seeds")
        for input in inputs {
            let summary = FuzzTarget.waylandSession.run(try FuzzCorpus.contents(of: input))
            XCTAssertTrue(summary.contains("handled"), "\(input): a seed is handled to its end: \(summary)")
        }
    }
}

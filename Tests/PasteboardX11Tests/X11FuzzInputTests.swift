import Foundation
import PasteboardFuzzing
import XCTest

/// Replays the committed fuzz inputs of the X11 decoders (seeds, and every crash the fuzzer
/// found) through the checks `pasteboard-fuzz x11` runs. A broken invariant traps.
final class X11FuzzInputTests: XCTestCase {
    func testTheX11DecodersKeepTheirInvariantsOnEveryCommittedInput() throws {
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/fuzz").path
        let inputs = try FuzzCorpus.committedInputs(of: .x11, in: fixtures)
        XCTAssertGreaterThanOrEqual(inputs.count, 7, "the x11 seeds: setup, events, an error, replies, Xauthority")
        for input in inputs {
            let summary = FuzzTarget.x11.run(try FuzzCorpus.contents(of: input))
            if input.contains("/seeds/") {
                XCTAssertFalse(summary.contains("refused"), "\(input): a seed is a valid input: \(summary)")
            }
        }
    }

    func testTheSelectionReaderAndOwnerKeepTheirInvariantsOnEveryCommittedScript() throws {
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/fuzz").path
        let inputs = try FuzzCorpus.committedInputs(of: .x11Session, in: fixtures)
        XCTAssertGreaterThanOrEqual(inputs.count, 4, "the x11-session seeds: the reader's and the owner's")
        var modes: Set<Substring> = []
        for input in inputs {
            // A broken invariant traps; what a script makes of the run depends on the machine's
            // speed (the scripted clients' waits are milliseconds), so only the mode is asserted.
            let summary = FuzzTarget.x11Session.run(try FuzzCorpus.contents(of: input))
            modes.insert(summary.prefix(while: { $0 != ":" }))
        }
        XCTAssertEqual(modes, ["reader", "owner"], "the seeds drive both machines")
    }
}

import Foundation
import PasteboardFuzzing
import XCTest

/// Replays the committed fuzz inputs of the declaration parser (seeds, and every crash the fuzzer
/// found) through the same invariant checks `pasteboard-fuzz declarations` runs. A broken invariant traps.
final class DeclarationFuzzRegressionTests: XCTestCase {
    func testDeclarationParserKeepsItsInvariantsOnEveryCommittedInput() throws {
        let fixtures = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // Tests/PasteboardTypesTests
            .deletingLastPathComponent()  // Tests
            .appendingPathComponent("Fixtures/fuzz").path
        let inputs = try FuzzCorpus.committedInputs(of: .declarations, in: fixtures)
        XCTAssertFalse(inputs.isEmpty, "no committed declaration inputs")
        for input in inputs {
            FuzzTarget.declarations.run(try FuzzCorpus.contents(of: input))
        }
    }
}

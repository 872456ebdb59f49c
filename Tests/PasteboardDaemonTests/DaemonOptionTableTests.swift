import Foundation
@testable import PasteboardDaemon
import XCTest

/// `pasteboardd` declares every configuration key again as a command-line option (ArgumentParser
/// needs the declarations for `--help`, completions and the man-page tests). This keeps the two
/// in step with the one key table, `ConfigurationKey.all`: every key is an option, and the
/// default `--help` gives is the key's built-in value.
final class DaemonOptionTableTests: XCTestCase {
    /// `pasteboardd --help`, from the binary built beside this test bundle, with its lines
    /// joined so a default wrapped across lines reads whole.
    private func help() throws -> String {
        let directory = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")).deletingLastPathComponent()
        let process = Process()
        process.executableURL = directory.appendingPathComponent("pasteboardd")
        process.arguments = ["--help"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        return String(decoding: data, as: UTF8.self)
    }

    /// The help of option `--name`: from its name to the next option, on one line.
    private func optionHelp(_ name: String, in help: String) -> String? {
        guard let start = help.range(of: "  --\(name) ") ?? help.range(of: "  --\(name)\n") else { return nil }
        let rest = help[start.upperBound...]
        let end = rest.range(of: "\n  -")?.lowerBound ?? rest.endIndex
        return rest[..<end].split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    func testEveryKeyIsAnOptionWhoseHelpGivesTheKeysDefault() throws {
        let help = try help()
        let defaults = DaemonConfiguration(socketPath: "/run/user/1000/pasteboard/pasteboardd.sock")
        var compared = 0
        for key in ConfigurationKey.all {
            let text = try XCTUnwrap(optionHelp(key.name, in: help), "pasteboardd has no --\(key.name) for the key \(key.name)")
            guard let range = text.range(of: "(default: ") else { continue }  // flags, and paths whose default is an environment rule
            let shown = String(text[range.upperBound...].prefix { $0 != ")" })
            guard !shown.hasPrefix("$") else { continue }  // the state directory: a rule, not a value
            compared += 1
            guard shown != "none" else {
                XCTAssertEqual(key.value(in: defaults), "none", "--\(key.name) says no default")
                continue
            }
            var configuration = defaults
            try key.set(shown, in: &configuration)
            XCTAssertEqual(key.value(in: configuration), key.value(in: defaults),
                           "--\(key.name)'s help gives the default \(shown), the key's is \(key.value(in: defaults))")
        }
        XCTAssertGreaterThanOrEqual(compared, 13, "the help gives fewer defaults than the keys have")
    }
}

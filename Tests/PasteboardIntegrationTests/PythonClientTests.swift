import Foundation
import XCTest

/// The Python client of Tests/Interop, written from man/pasteboard-protocol.7 alone, against a
/// real daemon, with `pb` on the other side of every exchange: what one copies the other pastes,
/// eager and lazy, with type negotiation, flow control and progress.
final class PythonClientTests: IntegrationTestCase {
    /// Tests/Interop/pasteboard_client.py, beside this file's directory.
    private static let clientScript = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Interop/pasteboard_client.py").path

    /// The first python3 on PATH, or nil.
    private static let python3: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        return path.split(separator: ":").map { "\($0)/python3" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    private func pythonExecutable() throws -> String {
        try XCTUnwrap(Self.python3, "python3 is not on PATH: the Python client tests need Python 3 (standard library only)")
    }

    /// Runs the Python client with `arguments` to completion against this test's daemon.
    private func runPython(_ arguments: [String]) throws -> ProcessResult {
        try runTool(pythonExecutable(), [Self.clientScript] + arguments, environment: sandbox.environment(), in: sandbox)
    }

    @discardableResult
    private func python(_ arguments: String...) throws -> ProcessResult {
        try runPython(arguments)
    }

    /// Runs the Python client and fails the test unless it exits 0.
    @discardableResult
    private func pythonOK(_ arguments: String..., file: StaticString = #filePath, line: UInt = #line) throws -> ProcessResult {
        let result = try runPython(arguments)
        XCTAssertEqual(result.status, 0, "pasteboard_client.py \(arguments.joined(separator: " ")): \(result.stderr)", file: file, line: line)
        return result
    }

    /// Starts the Python client in the background (killed at tearDown).
    private func startPython(_ arguments: String...) throws -> ToolProcess {
        try start(pythonExecutable(), [Self.clientScript] + arguments)
    }

    /// The types of the representations of item 0, in order, as `pb list --json` shows them.
    private func representationTypes() throws -> [String] {
        let items = try XCTUnwrap(listing()["items"] as? [[String: Any]])
        let representations = try XCTUnwrap(items.first?["representations"] as? [[String: Any]])
        return representations.compactMap { $0["type"] as? String }
    }

    /// The first field of `sha256sum FILE`.
    private func sha256(of path: String) throws -> String {
        let result = try runTool("/usr/bin/sha256sum", [path], environment: sandbox.environment(), in: sandbox)
        XCTAssertEqual(result.status, 0, result.stderr)
        return String(result.stdoutText.prefix { $0 != " " })
    }

    /// Progress is reported, never goes back, always has `total` as its total, and ends at it.
    private func assertProgress(_ lines: [String], endsAt total: Int, file: StaticString = #filePath, line: UInt = #line) {
        let progress = progressLines(lines)
        XCTAssertFalse(progress.isEmpty, "no progress lines in \(lines.suffix(5))", file: file, line: line)
        XCTAssertEqual(progress.map(\.completed), progress.map(\.completed).sorted(), "progress went back", file: file, line: line)
        XCTAssertTrue(progress.allSatisfy { $0.total == total }, "every report has the total \(total)", file: file, line: line)
        XCTAssertEqual(progress.last?.completed, total, "the last report is the total", file: file, line: line)
    }

    func testPBPasteNegotiatesAnItemThePythonClientCopied() throws {
        let html = "<p>Gr\u{FC}\u{DF}e, <b>world</b></p>", text = "Gr\u{FC}\u{DF}e, world \u{2713}", note = "{\"greeting\":1}"
        try pythonOK("copy", "--rep", "text/html=\(html)", "--rep", "text/plain=\(text)", "--rep", "com.example.greeting=\(note)")
        XCTAssertEqual(try representationTypes(), ["public.html", "public.plain-text", "com.example.greeting"],
                       "MIME types resolve to identifiers, in the order written")
        XCTAssertEqual(try pbOK("paste", "-t", "text").stdoutText, text, "plain text preferred")
        XCTAssertEqual(try pbOK("paste", "-t", "text/html").stdoutText, html)
        XCTAssertEqual(try pbOK("paste", "-t", "com.example.greeting").stdoutText, note, "the private type, by its identifier")
        XCTAssertEqual(try pbOK("paste").stdoutText, html, "without -t: the first representation")
        XCTAssertEqual(try pb("paste", "-t", "image").status, 1, "nothing conforms to public.image")
    }

    func testThePythonClientPastesWhatPBCopiedByteExact() throws {
        let text = Data("copied by pb \u{2713}\n".utf8)
        try pbOK("copy", stdin: text)
        XCTAssertEqual(try pythonOK("paste", "-t", "public.plain-text").stdout, text)
        // More than one flow-control window: the client must grant the daemon credit.
        let binary = try randomFile("random.bin", size: (6 << 20) + 12345)
        try pbOK("copy", binary)
        let pasted = try pythonOK("paste").stdout
        XCTAssertEqual(pasted.count, (6 << 20) + 12345)
        XCTAssertEqual(pasted, try Data(contentsOf: URL(fileURLWithPath: binary)), "the pasted bytes differ from the copied file")
        let refused = try python("paste", "-t", "public.image")
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("no-conforming-representation"), refused.stderr)
    }

    func testThePythonClientServesALazyRepresentationToPBPaste() throws {
        let size = 8 << 20  // two flow-control windows: the source must wait for credit
        let source = try startPython("serve-lazy", "application/octet-stream", String(size))
        XCTAssertNotNil(source.waitForLine { $0.hasPrefix("serving ") }, "the promise never reached the pasteboard: \(source.stderrLines)")
        try waitForLazyItems()
        let output = sandbox.path("lazy.bin")
        try pbOK("paste", "-o", output)
        XCTAssertEqual(source.waitForExit(), 0, "the source exits after one served load: \(source.stderrLines.suffix(3))")
        let served = try XCTUnwrap(source.stderrLines.first { $0.hasPrefix("served ") }, "\(source.stderrLines.suffix(3))")
        XCTAssertTrue(served.hasPrefix("served \(size) bytes, sha256 "), served)
        XCTAssertEqual(try sha256(of: output), served.split(separator: " ").last.map(String.init), "the pasted bytes differ from the served ones")
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: output)[.size] as? Int, size)
        assertProgress(source.stderrLines, endsAt: size)
        XCTAssertEqual(try XCTUnwrap(listing()["items"] as? [[String: Any]]).count, 0, "the source cleared the pasteboard")
    }

    func testThePythonClientPastesALargeLazyItemWithProgress() throws {
        let size = 32 << 20
        let file = try randomFile("large.bin", size: size)
        _ = try startPB("copy", "--lazy", file)
        try waitForLazyItems()
        let output = sandbox.path("pasted.bin")
        let paste = try pythonOK("paste", "--progress", "-o", output)
        assertProgress(paste.stderr.split(separator: "\n").map(String.init), endsAt: size)
        XCTAssertGreaterThan(progressLines(paste.stderr.split(separator: "\n").map(String.init)).count, 1, "progress along the way")
        XCTAssertEqual(try runTool("/usr/bin/cmp", [file, output], environment: sandbox.environment(), in: sandbox).status, 0,
                       "the pasted file differs from the source file")
    }

    /// The example of pasteboard-protocol(7)'s EXAMPLES section, as the page shows it (roff
    /// escapes undone), so that the page stands alone: a client written from it works.
    private func protocolPageExample() throws -> String {
        let page = try String(contentsOfFile: ManPage.directory.appendingPathComponent("pasteboard-protocol.7").path, encoding: .utf8)
        let examples = try XCTUnwrap(page.range(of: "\n.SH EXAMPLES\n"), "the page has an EXAMPLES section")
        let section = page[examples.upperBound...]
        let start = try XCTUnwrap(section.range(of: ".EX\n"), "EXAMPLES shows code")
        let end = try XCTUnwrap(section.range(of: "\n.EE\n", range: start.upperBound..<section.endIndex))
        return String(section[start.upperBound..<end.lowerBound])
            .replacingOccurrences(of: "\\-", with: "-")
            .replacingOccurrences(of: "\\e", with: "\\")
    }

    func testThePythonClientListsTheDaemonsTypesAcrossPagesAsPBDoes() throws {
        // More declarations than one frame of the smallest limit holds: the list comes in pages.
        let directory = sandbox.path("config/pasteboard/types.d")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let description = String(repeating: "d", count: 500)
        let declarations = (0..<300).map { #"{"identifier":"com.example.t\#($0)","conformsTo":["public.data"],"description":"\#(description)"}"# }
        try Data(#"{"types":[\#(declarations.joined(separator: ","))]}"#.utf8).write(to: URL(fileURLWithPath: directory + "/many.json"))
        daemon.stop()
        daemon = try DaemonProcess.started(in: sandbox, arguments: ["--max-frame-length", "64K"])

        let lines = try pythonOK("types").stdoutText.split(separator: "\n")
        XCTAssertEqual(lines.first, "public.item  built-in")
        XCTAssertEqual(lines.last, "com.example.t299  \(directory)/many.json")
        let identifiers = lines.map { String($0.prefix { $0 != " " }) }
        let pbIdentifiers = try pbOK("types").stdoutText.split(separator: "\n").map { String($0.prefix { $0 != " " }) }
        XCTAssertEqual(identifiers.sorted(), pbIdentifiers, "the same declarations pb types lists")
        XCTAssertEqual(identifiers.count, Set(identifiers).count)
    }

    func testTheProtocolPagesExampleClientCopiesAndPastesWithPB() throws {
        // A small window, so that the example's copy and paste both live on credit.
        daemon.stop()
        daemon = try DaemonProcess.started(in: sandbox, arguments: ["--window", "64K"])
        let script = sandbox.path("pbmini.py")
        try protocolPageExample().write(toFile: script, atomically: true, encoding: .utf8)
        @discardableResult
        func example(_ command: String, stdin: Data = Data()) throws -> ProcessResult {
            let result = try runTool(pythonExecutable(), [script, command], stdin: stdin, environment: sandbox.environment(), in: sandbox)
            XCTAssertEqual(result.status, 0, "pbmini.py \(command): \(result.stderr)")
            return result
        }

        let text = Data("from the page \u{2713}\n".utf8)
        try example("copy", stdin: text)
        XCTAssertEqual(try pbOK("paste", "-t", "text").stdout, text)
        try pbOK("copy", stdin: Data("from pb".utf8))
        XCTAssertEqual(try example("paste").stdout, Data("from pb".utf8))

        // Many windows' worth each way.
        var large = Data(count: (1 << 20) + 4321)
        for index in large.indices { large[index] = UInt8(ascii: "a") + UInt8(index % 26) }
        try example("copy", stdin: large)
        XCTAssertEqual(try pbOK("paste").stdout, large)
        try pbOK("copy", stdin: large + Data("!".utf8))
        XCTAssertEqual(try example("paste").stdout, large + Data("!".utf8))

        // Empty content is a copy too.
        try example("copy")
        XCTAssertEqual(try pbOK("paste").stdout, Data())
    }
}

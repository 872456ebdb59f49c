import Foundation
import XCTest

/// `pb types` and user type declarations, seen through real processes.
final class TypesCommandTests: XCTestCase {
    var sandbox: Sandbox!

    override func setUpWithError() throws { sandbox = try Sandbox() }
    override func tearDown() { sandbox.remove() }

    private func pbTypes(_ arguments: String...) throws -> ProcessResult {
        try runTool("pb", ["types"] + arguments, environment: sandbox.environment(), in: sandbox)
    }

    func testDescribesAConformanceChainFromAUTIOrAMIMEType() throws {
        let svg = try pbTypes("image/svg+xml")
        XCTAssertEqual(svg.status, 0, svg.stderr)
        XCTAssertTrue(svg.stdoutText.hasPrefix("public.svg-image\n"), svg.stdoutText)
        XCTAssertTrue(svg.stdoutText.contains("conforms to: public.image, public.xml"), svg.stdoutText)
        XCTAssertTrue(svg.stdoutText.contains("extensions: svg"), svg.stdoutText)

        let dynamic = try pbTypes("text/x-foo")
        XCTAssertTrue(dynamic.stdoutText.contains("dyn.mime.text/x-foo  (dynamic)"), dynamic.stdoutText)
        XCTAssertTrue(dynamic.stdoutText.contains("public.text"), dynamic.stdoutText)

        let unknown = try pbTypes("public.nonsense")
        XCTAssertEqual(unknown.status, 1)
        XCTAssertTrue(unknown.stderr.contains("unknown type 'public.nonsense'"), unknown.stderr)
    }

    func testListsTheRegistry() throws {
        let list = try pbTypes()
        XCTAssertEqual(list.status, 0)
        XCTAssertTrue(list.stdoutText.contains("public.png  image/png  png"), list.stdoutText)
        XCTAssertGreaterThanOrEqual(list.stdoutText.split(separator: "\n").count, 21)
    }

    func testDesktopNamesMapAsTheBridgeMapsThem() throws {
        let table = try pbTypes("--desktop")
        XCTAssertEqual(table.status, 0, table.stderr)
        XCTAssertTrue(table.stdoutText.contains("  STRING  (ISO 8859-1, converted to UTF-8)"), table.stdoutText)
        XCTAssertTrue(table.stdoutText.contains("ignored (plumbing): ATOM_PAIR"), table.stdoutText)
        XCTAssertEqual(try pbTypes("--desktop", "STRING").stdoutText, "STRING -> public.utf8-plain-text  (ISO 8859-1, converted to UTF-8)\n")
        XCTAssertEqual(try pbTypes("--desktop", "image/png").stdoutText, "image/png -> public.png\n")
        XCTAssertEqual(try pbTypes("--desktop", "TARGETS").stdoutText, "TARGETS  (plumbing: never a representation)\n")
        let unknown = try pbTypes("--desktop", "_QT_SELECTION")
        XCTAssertEqual(unknown.status, 1)
        XCTAssertTrue(unknown.stderr.contains("'_QT_SELECTION' maps to no type"), unknown.stderr)
        let text = try pbTypes("public.utf8-plain-text")
        XCTAssertTrue(text.stdoutText.contains("  desktop targets: text/plain;charset=utf-8, text/plain, UTF8_STRING, STRING, TEXT\n"), text.stdoutText)
    }

    func testUserTypesReachPbAndTheDaemonAndBadFilesAreNamed() throws {
        let directory = sandbox.root.appendingPathComponent("config/pasteboard/types.d")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data(#"{"types":[{"identifier":"com.example.recipe","conformsTo":["public.json"],"mimeTypes":["application/x-recipe"],"filenameExtensions":["recipe"]}]}"#.utf8)
            .write(to: directory.appendingPathComponent("recipe.json"))
        try Data(#"{"types":[{"identifier":"com.example.broken","conformsTo":["public.nowhere"]}]}"#.utf8)
            .write(to: directory.appendingPathComponent("broken.json"))

        let described = try pbTypes("application/x-recipe")
        XCTAssertTrue(described.stdoutText.hasPrefix("com.example.recipe\n"), described.stdoutText)
        XCTAssertTrue(described.stdoutText.contains("public.json, public.text"), described.stdoutText)
        XCTAssertTrue(described.stderr.contains("broken.json"), "the bad file is named: \(described.stderr)")
        XCTAssertTrue(described.stderr.contains("public.nowhere"), described.stderr)

        let daemon = try DaemonProcess.started(in: sandbox)
        defer { daemon.stop() }
        try Data("{\"flour\":1}".utf8).write(to: sandbox.root.appendingPathComponent("bread.recipe"))
        let copy = try runTool("pb", ["copy", sandbox.path("bread.recipe")], environment: sandbox.environment(), in: sandbox)
        XCTAssertEqual(copy.status, 0, copy.stderr)
        let paste = try runTool("pb", ["paste", "-t", "public.text"], environment: sandbox.environment(), in: sandbox)
        XCTAssertEqual(paste.stdoutText, "{\"flour\":1}", "the daemon knows the user type conforms to text: \(paste.stderr)")
        XCTAssertTrue(daemon.log.contains("broken.json"), daemon.log)
    }

    func testStandardInputIsSniffedWithTheUsersMagicNumbersToo() throws {
        let directory = sandbox.root.appendingPathComponent("config/pasteboard/types.d")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data(#"{"types":[{"identifier":"com.example.cad","conformsTo":["public.data"],"magic":[{"offset":0,"bytes":"43414431"}]}]}"#.utf8)
            .write(to: directory.appendingPathComponent("cad.json"))
        let daemon = try DaemonProcess.started(in: sandbox)
        defer { daemon.stop() }
        for (input, expected) in [("CAD1 drawing", "com.example.cad"), ("GIF89a", "public.gif"), ("CAD2", "public.utf8-plain-text")] {
            let copy = try runTool("pb", ["copy"], stdin: Data(input.utf8), environment: sandbox.environment(), in: sandbox)
            XCTAssertEqual(copy.status, 0, copy.stderr)
            let list = try runTool("pb", ["list"], environment: sandbox.environment(), in: sandbox)
            XCTAssertTrue(list.stdoutText.contains("  \(expected)  "), "\(input) should be \(expected): \(list.stdoutText)")
        }
    }

    // MARK: shared-mime-info

    /// `Tests/Fixtures/shared-mime-info`: a data directory whose `mime` holds a small database.
    private static let sharedMIMEInfoFixture = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Tests/PasteboardIntegrationTests
        .deletingLastPathComponent()  // Tests
        .appendingPathComponent("Fixtures/shared-mime-info").path

    /// Copies `text` as `type`, then pastes with `-t` for each of `accepted`, through a daemon in this sandbox.
    private func copyThenPaste(_ text: String, as type: String, accepting accepted: [String]) throws -> ProcessResult {
        let copy = try runTool("pb", ["copy", "-t", type], stdin: Data(text.utf8), environment: sandbox.environment(), in: sandbox)
        XCTAssertEqual(copy.status, 0, copy.stderr)
        return try runTool("pb", ["paste"] + accepted.flatMap { ["-t", $0] }, environment: sandbox.environment(), in: sandbox)
    }

    func testSharedMIMEInfoGivesUndeclaredMIMETypesARealChain() throws {
        sandbox.remove()
        sandbox = try Sandbox(dataDirectories: [Self.sharedMIMEInfoFixture])

        let python = try pbTypes("text/x-python")
        XCTAssertEqual(python.status, 0, python.stderr)
        XCTAssertTrue(python.stdoutText.hasPrefix("dyn.mime.text/x-python  (dynamic)\n"), python.stdoutText)
        XCTAssertTrue(python.stdoutText.contains(
            "conforms to: dyn.mime.application/x-executable, public.plain-text, public.data, public.text, public.item, public.content\n"
        ), python.stdoutText)
        let alias = try pbTypes("text/x-c")
        XCTAssertTrue(alias.stdoutText.hasPrefix("dyn.mime.text/x-csrc  (dynamic)\n"), "an alias resolves to its canonical type: \(alias.stdoutText)")
        let declared = try pbTypes("text/html")
        XCTAssertTrue(declared.stdoutText.contains("conforms to: public.text, public.data, public.content, public.item\n"),
                      "declared types win: \(declared.stdoutText)")

        // The daemon negotiates with the same chain: only through shared-mime-info is text/x-python plain text.
        let daemon = try DaemonProcess.started(in: sandbox)
        defer { daemon.stop() }
        let paste = try copyThenPaste("print(1)\n", as: "text/x-python", accepting: ["public.plain-text"])
        XCTAssertEqual(paste.status, 0, paste.stderr)
        XCTAssertEqual(paste.stdoutText, "print(1)\n")
        XCTAssertEqual(try runTool("pb", ["paste", "-t", "text"], environment: sandbox.environment(), in: sandbox).stdoutText, "print(1)\n")
    }

    func testWithoutSharedMIMEInfoEverythingStillWorks() throws {
        // XDG_DATA_DIRS names one directory, which is empty (and so is XDG_DATA_HOME).
        XCTAssertEqual(sandbox.environment()["XDG_DATA_DIRS"], sandbox.path("data"))
        try FileManager.default.createDirectory(atPath: sandbox.path("data"), withIntermediateDirectories: true)

        let python = try pbTypes("text/x-python")
        XCTAssertEqual(python.status, 0, python.stderr)
        XCTAssertTrue(python.stdoutText.contains("conforms to: public.text, public.data, public.content, public.item\n"), python.stdoutText)
        XCTAssertTrue(try pbTypes("text/x-c").stdoutText.hasPrefix("dyn.mime.text/x-c  (dynamic)\n"))

        let daemon = try DaemonProcess.started(in: sandbox)
        defer { daemon.stop() }
        let refused = try copyThenPaste("print(1)\n", as: "text/x-python", accepting: ["public.plain-text"])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("no representation conforming to public.plain-text"), refused.stderr)
        let paste = try runTool("pb", ["paste", "-t", "text"], environment: sandbox.environment(), in: sandbox)
        XCTAssertEqual(paste.stdoutText, "print(1)\n", paste.stderr)
    }
}

extension TypesCommandTests {
    func testWithoutADaemonItSaysItShowsTheTypesAsTheyAreNow() throws {
        let list = try pbTypes()
        XCTAssertEqual(list.status, 0, list.stderr)
        XCTAssertTrue(list.stderr.contains(
            "pb: note: no pasteboardd answers; showing the built-in types and types.d as they are now, without the types apps declare to pasteboardd"),
            list.stderr)
        XCTAssertTrue(try pbTypes("public.png").stdoutText.contains("  source: built-in\n"))
    }
}

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
}

import Foundation
import Glibc
import Pasteboard
import PasteboardTypes
import XCTest

/// SIGHUP reloads the user's type declarations (types.d) into the running daemon, all or
/// nothing, as it reloads the configuration file; the apps' declarations stay, but where a
/// file now declares the same type.
final class TypesReloadTests: IntegrationTestCase {
    private var typesDirectory: String { sandbox.path("config/pasteboard/types.d") }

    /// Writes `json` as `types.d/name`.
    private func writeTypes(_ name: String, _ json: String) throws {
        try FileManager.default.createDirectory(atPath: typesDirectory, withIntermediateDirectories: true)
        try Data(json.utf8).write(to: URL(fileURLWithPath: typesDirectory + "/" + name))
    }

    /// Sends SIGHUP and waits for the `count`th line containing `outcome` in the log.
    private func hangUp(waitingFor outcome: String = "types reloaded", count: Int = 1, line: UInt = #line) {
        daemon.signal(SIGHUP)
        XCTAssertTrue(daemon.waitForLog(outcome, count: count), "no '\(outcome)' logged: \(daemon.log)", line: line)
    }

    private let recipe = #"{"types":[{"identifier":"com.example.recipe","conformsTo":["public.json"],"mimeTypes":["application/x-recipe"]}]}"#

    func testAFileWrittenAfterTheStartIsReadOnSIGHUP() throws {
        try writeTypes("recipe.json", recipe)
        let unread = try pb("types", "com.example.recipe")
        XCTAssertEqual(unread.status, 1)
        XCTAssertTrue(unread.stderr.contains(
            "unknown type 'com.example.recipe': not a declared type identifier or a MIME type to the running pasteboardd; \(typesDirectory)/recipe.json declares it, which pasteboardd reads when it starts or on SIGHUP (systemctl --user reload pasteboardd"),
            unread.stderr)

        hangUp()
        let shown = try pbOK("types", "application/x-recipe").stdoutText
        XCTAssertTrue(shown.hasPrefix("com.example.recipe\n"), shown)
        XCTAssertTrue(shown.contains("  source: \(typesDirectory)/recipe.json\n"), shown)
        // The daemon negotiates with it: a recipe is JSON.
        try pbOK("copy", "-t", "com.example.recipe", stdin: Data("{\"flour\":1}".utf8))
        XCTAssertEqual(try pbOK("paste", "-t", "public.json").stdoutText, "{\"flour\":1}")
        XCTAssertTrue(daemon.log.contains("declarations=1"), daemon.log)
    }

    func testABadFileOnSIGHUPIsLoggedAndThePreviousTypesStayEntirely() throws {
        try writeTypes("recipe.json", recipe)
        hangUp()
        try writeTypes("more.json", #"{"types":[{"identifier":"com.example.menu","conformsTo":["public.json"]}]}"#)
        try writeTypes("recipe.json", #"{"types":[{"identifier":"com.example.recipe","conformsTo":["public.nowhere"]}]}"#)

        hangUp(waitingFor: "types not reloaded; the running declarations stay")
        XCTAssertTrue(daemon.log.contains("types not reloaded: \(typesDirectory)/recipe.json: types[0].conformsTo[0]: unknown parent type 'public.nowhere'"), daemon.log)
        let kept = try pbOK("types", "com.example.recipe").stdoutText
        XCTAssertTrue(kept.contains("  conforms to: public.json"), "the previous declaration stays: \(kept)")
        let notAdded = try pb("types", "com.example.menu")
        XCTAssertEqual(notAdded.status, 1, "the good file was not half-applied: \(notAdded.stdoutText)")

        try writeTypes("recipe.json", recipe)
        hangUp(count: 2)
        XCTAssertTrue(try pbOK("types", "com.example.menu").stdoutText.contains("  source: \(typesDirectory)/more.json\n"))
    }

    func testAFileThatDeclaresAnAppsTypeWinsAndTheLogNamesTheDroppedDeclaration() async throws {
        let note = TypeDeclaration(identifier: "com.example.note", conformsTo: [.json], mimeTypes: ["application/x-note"])
        let memo = TypeDeclaration(identifier: "com.other.memo", conformsTo: ["com.example.note"])
        let same = TypeDeclaration(identifier: "com.example.same", conformsTo: [.data])
        try await PasteboardConnection.withConnection(socketPath: sandbox.socketPath, clientName: "notes", declaring: [note, same], autoStart: false) { _ in }
        try await PasteboardConnection.withConnection(socketPath: sandbox.socketPath, clientName: "other", declaring: [memo], autoStart: false) { _ in }

        try writeTypes("note.json", #"""
            {"types":[{"identifier":"com.example.note","conformsTo":["public.plain-text"]},
                      {"identifier":"com.example.same","conformsTo":["public.data"]}]}
            """#)
        hangUp()
        XCTAssertTrue(daemon.log.contains("app type declaration dropped: \(typesDirectory)/note.json declares it"), daemon.log)
        XCTAssertTrue(daemon.log.contains("app=notes"), daemon.log)
        let shown = try pbOK("types", "com.example.note").stdoutText
        XCTAssertTrue(shown.contains("  source: \(typesDirectory)/note.json\n"), shown)
        let memoShown = try pbOK("types", "com.other.memo").stdoutText
        XCTAssertTrue(memoShown.contains("  conforms to: com.example.note, public.plain-text"), "the app type that conforms to it follows the file's: \(memoShown)")
        XCTAssertTrue(memoShown.contains("  source: declared by other\n"), memoShown)
        XCTAssertTrue(try pbOK("types", "com.example.same").stdoutText.contains("  source: \(typesDirectory)/note.json\n"))

        // The app's old declaration is now a clash with the file's; the file's own is accepted.
        do {
            try await PasteboardConnection.withConnection(socketPath: sandbox.socketPath, clientName: "notes", declaring: [note], autoStart: false) { _ in }
            XCTFail("the file's type was replaced by an app")
        } catch let error as PasteboardError {
            XCTAssertTrue(error.description.contains("is already declared by \(typesDirectory)/note.json"), error.description)
        }
        try await PasteboardConnection.withConnection(socketPath: sandbox.socketPath, clientName: "notes", declaring: [same], autoStart: false) { _ in }
    }

    func testAnInstalledDeclarationFileIsReadOnSIGHUPAndTheAppKeepsDeclaringItsTypes() async throws {
        let note = TypeDeclaration(identifier: "com.example.note", conformsTo: [.json], mimeTypes: ["application/x-note"])
        try await PasteboardConnection.withConnection(socketPath: sandbox.socketPath, clientName: "notes", declaring: [note], autoStart: false) { _ in }
        let path = try TypeDeclaration.install([note], fileName: "com.example.notes", environment: sandbox.environment())
        XCTAssertEqual(path, typesDirectory + "/com.example.notes.json")
        XCTAssertTrue(try pbOK("types", "com.example.note").stdoutText.contains("  source: declared by notes\n"), "read only on SIGHUP")

        hangUp()
        let shown = try pbOK("types", "application/x-note").stdoutText
        XCTAssertTrue(shown.hasPrefix("com.example.note\n"), shown)
        XCTAssertTrue(shown.contains("  source: \(path)\n"), shown)
        XCTAssertFalse(daemon.log.contains("app type declaration dropped"), "the same declaration is adopted, not dropped: \(daemon.log)")
        // The app declares the same types at its next connect, as before.
        try await PasteboardConnection.withConnection(socketPath: sandbox.socketPath, clientName: "notes", declaring: [note], autoStart: false) { _ in }
    }
}

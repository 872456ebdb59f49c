import Foundation
import Pasteboard
import PasteboardTypes
import XCTest

/// Types apps declare when they connect, as `pb types` and the daemon see them: an app may
/// replace its own declaration (an upgrade), another app may not, and what is on a pasteboard
/// keeps its bytes and type while its conformance and MIME type follow the new declaration.
final class DeclaredTypesTests: IntegrationTestCase {
    private let noteV1 = TypeDeclaration(
        identifier: "com.example.note", conformsTo: [.json], mimeTypes: ["application/x-note"], description: "A note")
    private var noteV2: TypeDeclaration {
        var note = noteV1
        note.mimeTypes = ["application/vnd.example.note", "application/x-note"]
        note.filenameExtensions = ["note"]
        return note
    }

    /// Connects as `app`, declaring `types`, and runs `body`.
    private func connect(as app: String, declaring types: [TypeDeclaration], _ body: (Pasteboard) async throws -> Void = { _ in }) async throws {
        try await PasteboardConnection.withConnection(socketPath: sandbox.socketPath, clientName: app, declaring: types, autoStart: false) {
            try await body(Pasteboard(connection: $0))
        }
    }

    /// The `PasteboardError` that connecting as `app` declaring `types` throws; nil, failing the test, when it throws none.
    private func refusal(as app: String, declaring types: [TypeDeclaration], line: UInt = #line) async -> PasteboardError? {
        do {
            try await connect(as: app, declaring: types)
            XCTFail("\(app)'s declaration was accepted", line: line)
        } catch let error as PasteboardError {
            return error
        } catch {
            XCTFail("\(error)", line: line)
        }
        return nil
    }

    func testAnAppReplacesItsOwnDeclarationAndAnotherAppIsRefusedNamingTheOwner() async throws {
        let bytes = Array(#"{"title":"groceries"}"#.utf8)
        try await connect(as: "notes", declaring: [noteV1]) { pasteboard in
            var item = ItemProvider()
            item.registerData(bytes, for: "com.example.note")
            try await pasteboard.setItems([item])
        }
        var shown = try pbOK("types", "com.example.note").stdoutText
        XCTAssertTrue(shown.hasPrefix("com.example.note\n"), shown)
        XCTAssertTrue(shown.contains("  MIME types: application/x-note\n"), shown)
        XCTAssertTrue(shown.contains("  source: declared by notes\n"), shown)
        XCTAssertTrue(try pbOK("types").stdoutText.contains("com.example.note  application/x-note  -\n"))

        // The same app, upgraded, declares a changed declaration: it replaces the old one.
        try await connect(as: "notes", declaring: [noteV2])
        shown = try pbOK("types", "com.example.note").stdoutText
        XCTAssertTrue(shown.contains("  MIME types: application/vnd.example.note, application/x-note\n"), shown)
        XCTAssertTrue(shown.contains("  extensions: note\n"), shown)
        XCTAssertTrue(shown.contains("  conforms to: public.json, public.text"), shown)
        XCTAssertEqual(try pbOK("types", "application/vnd.example.note").stdoutText, shown, "the new MIME type resolves")
        XCTAssertTrue(daemon.log.contains("replaced=[\"com.example.note\"]"), daemon.log)

        // The item on the pasteboard kept its type and bytes; its MIME type follows the new declaration.
        let listed = try pbOK("list").stdoutText
        XCTAssertTrue(listed.contains("  com.example.note  application/vnd.example.note  \(bytes.count) bytes"), listed)
        XCTAssertEqual(try pbOK("paste", "-t", "public.json").stdout, Data(bytes))

        // Another app may not replace it: refused, naming who declared it.
        var theirs = noteV1
        theirs.conformsTo = [.data]
        let error = await refusal(as: "other", declaring: [theirs])
        XCTAssertEqual(error?.code, .typeConflict)
        XCTAssertEqual(error?.description, "types[0].identifier: type 'com.example.note' is already declared by app 'notes' (only that app may replace it)")
        XCTAssertTrue(try pbOK("types", "com.example.note").stdoutText.contains("  source: declared by notes\n"), "nothing changed")

        // The same declaration from anyone is still fine (apps declare at every connect).
        try await connect(as: "other", declaring: [noteV2])
    }

    func testAReplacementThatWouldBreakAnotherAppsTypeIsRefused() async throws {
        try await connect(as: "notes", declaring: [noteV1])
        let memo = TypeDeclaration(identifier: "com.other.memo", conformsTo: ["com.example.note"])
        try await connect(as: "other", declaring: [memo])
        var looping = noteV1
        looping.conformsTo = [.json, "com.other.memo"]
        let error = await refusal(as: "notes", declaring: [looping])
        XCTAssertEqual(error?.code, .invalidArgument)
        XCTAssertEqual(
            error?.description,
            "types[0].conformsTo[1]: conformance cycle among 'com.example.note', 'com.other.memo', which would break 'com.other.memo' (declared by app 'other')")
        let memoShown = try pbOK("types", "com.other.memo").stdoutText
        XCTAssertTrue(memoShown.contains("  conforms to: com.example.note, public.json, public.text"), memoShown)
    }

    func testABuiltInOrFileTypeIsNoAppsToReplace() async throws {
        let directory = sandbox.path("config/pasteboard/types.d")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try Data(#"{"types":[{"identifier":"com.example.recipe","conformsTo":["public.json"]}]}"#.utf8)
            .write(to: URL(fileURLWithPath: directory + "/recipe.json"))
        daemon.stop()
        daemon = try DaemonProcess.started(in: sandbox)

        let png = await refusal(as: "notes", declaring: [TypeDeclaration(identifier: .png, conformsTo: [.image], mimeTypes: ["image/x-png"])])
        XCTAssertEqual(png?.code, .typeConflict)
        XCTAssertEqual(png?.description, "types[0].identifier: type 'public.png' is already declared by the built-in types")
        let recipe = await refusal(as: "notes", declaring: [TypeDeclaration(identifier: "com.example.recipe", conformsTo: [.text])])
        XCTAssertEqual(recipe?.description,
                       "types[0].identifier: type 'com.example.recipe' is already declared by \(directory)/recipe.json (edit that file and reload pasteboardd to change it)")
        XCTAssertTrue(try pbOK("types", "com.example.recipe").stdoutText.contains("  source: \(directory)/recipe.json\n"))
        XCTAssertTrue(try pbOK("types", "public.png").stdoutText.contains("  source: built-in\n"))
    }

    func testAnAppThatInstalledItsTypesIsUpgradedWithNoReload() async throws {
        // Version 1 installs its declaration for good; the daemon reads it when it starts.
        let environment = sandbox.environment()
        try TypeDeclaration.install([noteV1], fileName: "com.example.notes", app: "notes", environment: environment)
        daemon.stop()
        daemon = try DaemonProcess.started(in: sandbox)
        try await connect(as: "notes", declaring: [noteV1])

        // Version 2 declares its new declaration when it connects: the daemon takes it from the
        // app whose file it replaces (no SIGHUP, no restart), before or after the new file is written.
        try await connect(as: "notes", declaring: [noteV2])
        var shown = try pbOK("types", "com.example.note").stdoutText
        XCTAssertTrue(shown.contains("  MIME types: application/vnd.example.note, application/x-note\n"), shown)
        XCTAssertTrue(shown.contains("  source: declared by notes\n"), shown)
        try TypeDeclaration.install([noteV2], fileName: "com.example.notes", app: "notes", environment: environment)
        try await connect(as: "notes", declaring: [noteV2])
        // A reload finds the file now says what the app declared: the file's again.
        daemon.signal(SIGHUP)
        XCTAssertTrue(daemon.waitForLog("types reloaded"), daemon.log)
        shown = try pbOK("types", "com.example.note").stdoutText
        XCTAssertTrue(shown.contains("  source: \(sandbox.path("config/pasteboard/types.d"))/com.example.notes.json\n"), shown)
        XCTAssertTrue(shown.contains("  MIME types: application/vnd.example.note, application/x-note\n"), shown)

        // Another app may not replace the file's declaration; its refusal has a code to switch on.
        var theirs = noteV2
        theirs.conformsTo = [.data]
        let error = await refusal(as: "other", declaring: [theirs])
        XCTAssertEqual(error?.code, .typeConflict)
        XCTAssertTrue(error?.description.hasSuffix("the file of app 'notes' (only that app may replace it)") == true, "\(String(describing: error))")
    }
}

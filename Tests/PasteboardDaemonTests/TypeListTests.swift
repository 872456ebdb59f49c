import Foundation
import NIOCore
import PasteboardDaemon
import PasteboardDaemonFuzzing
import PasteboardProtocol
import PasteboardTypes
import XCTest

/// `declare` and `types` as the daemon handles them (through `RequestRehearsal`, which handles
/// requests as a connection does): an app replaces its own declarations, and `type-list` pages
/// through the registry in its order, each page within one frame.
final class TypeListTests: XCTestCase {
    /// A daemon with the smallest frame limit, 64 KiB, so that a few hundred declarations take pages.
    private let rehearsal = {
        var configuration = DaemonConfiguration(socketPath: "")
        configuration.maxFrameLength = ProtocolLimits.minimumMaxFrameLength
        return RequestRehearsal(configuration: configuration)
    }()

    /// Every page from `types`, following `more`.
    private func allPages() async throws -> [TypeList] {
        var pages: [TypeList] = []
        var start = 0
        while true {
            guard case .answered(.typeList(let page)?) = await rehearsal.perform(.types(TypesRequest(start: start))) else {
                XCTFail("no type-list")
                return pages
            }
            pages.append(page)
            let frame = MessageCodec.encode(.typeList(page)).readableBytes + ProtocolLimits.headerLength
            XCTAssertLessThanOrEqual(frame, rehearsal.configuration.maxFrameLength, "page from \(start) fits in a frame")
            guard page.more == true else { return pages }
            XCTAssertFalse(page.types.isEmpty)
            start += page.types.count
        }
    }

    func testTheListIsTheRegistryInItsOrderWithEachSource() async throws {
        let note = TypeDeclaration(identifier: "com.example.note", conformsTo: [.json], mimeTypes: ["application/x-note"])
        let declared = await rehearsal.perform(.declare(DeclareRequest(types: [note])))
        XCTAssertEqual(declared, .answered(.ok(OK())))
        let pages = try await allPages()
        XCTAssertEqual(pages.count, 1)
        let types = pages.flatMap(\.types)
        XCTAssertEqual(types.map(\.declaration), TypeRegistry.builtIn.declarationsInOrder + [note])
        XCTAssertEqual(types.first?.origin, "built-in")
        XCTAssertEqual(types.last, TypeDeclarationInfo(declaration: note, source: "app", app: "rehearsal"))
        XCTAssertEqual(types.last?.origin, "declared by rehearsal")
    }

    func testAnAppReplacesItsOwnDeclarationAndTheGenerationCounts() async throws {
        var note = TypeDeclaration(identifier: "com.example.note", conformsTo: [.json], mimeTypes: ["application/x-note"])
        _ = await rehearsal.perform(.declare(DeclareRequest(types: [note])))
        let before = try await allPages()[0].generation
        _ = await rehearsal.perform(.declare(DeclareRequest(types: [note])))
        let again = try await allPages()[0].generation
        XCTAssertEqual(again, before, "the same declaration again changes nothing")
        note.filenameExtensions = ["note"]
        let replaced = await rehearsal.perform(.declare(DeclareRequest(types: [note])))
        XCTAssertEqual(replaced, .answered(.ok(OK())))
        let after = try await allPages()[0]
        XCTAssertGreaterThan(after.generation, before)
        XCTAssertEqual(after.types.last?.declaration, note)
        XCTAssertEqual(rehearsal.store.registry.type(forFilenameExtension: "note"), "com.example.note")
    }

    func testABuiltInTypeIsNotAnAppsToReplace() async throws {
        let png = TypeDeclaration(identifier: "public.png", conformsTo: [.image], mimeTypes: ["image/x-png"])
        guard case .refused(let error) = await rehearsal.perform(.declare(DeclareRequest(types: [png]))) else {
            return XCTFail("a built-in type was replaced")
        }
        XCTAssertEqual(error.code, .typeConflict)
        XCTAssertEqual(error.message, "types[0].identifier: type 'public.png' is already declared by the built-in types")
    }

    func testAnIdentifierTwiceInOneRequestIsRefusedEvenWhenOneCopyChangesNothing() async throws {
        let note = TypeDeclaration(identifier: "com.example.note", conformsTo: [.json])
        var other = note
        other.conformsTo = [.text]
        _ = await rehearsal.perform(.declare(DeclareRequest(types: [note])))
        guard case .refused(let error) = await rehearsal.perform(.declare(DeclareRequest(types: [note, other]))) else {
            return XCTFail("accepted")
        }
        XCTAssertEqual(error.message, "types[1].identifier: type 'com.example.note' is declared twice (first at types[0])")
        XCTAssertEqual(rehearsal.store.registry.declaration(for: "com.example.note"), note)
    }

    func testManyDeclarationsComeInPagesThatEachFitAFrame() async throws {
        let description = String(repeating: "d", count: 500)
        let declarations = (0..<300).map { TypeDeclaration(identifier: TypeIdentifier(rawValue: "com.example.t\($0)"), conformsTo: [.data], description: description) }
        for start in stride(from: 0, to: declarations.count, by: 50) {
            let batch = Array(declarations[start..<start + 50])
            let declared = await rehearsal.perform(.declare(DeclareRequest(types: batch)))
            XCTAssertEqual(declared, .answered(.ok(OK())))
        }
        let pages = try await allPages()
        XCTAssertGreaterThan(pages.count, 1)
        XCTAssertEqual(Set(pages.map(\.generation)).count, 1)
        XCTAssertEqual(pages.flatMap(\.types).map(\.declaration), TypeRegistry.builtIn.declarationsInOrder + declarations)
    }

    func testANegativeStartIsRefusedAndOnePastTheEndIsEmpty() async throws {
        guard case .refused(let error) = await rehearsal.perform(.types(TypesRequest(start: -1))) else { return XCTFail("accepted") }
        XCTAssertEqual(error.code, .invalidArgument)
        guard case .answered(.typeList(let list)?) = await rehearsal.perform(.types(TypesRequest(start: 1000))) else { return XCTFail("no list") }
        XCTAssertEqual(list.types, [])
        XCTAssertNil(list.more)
    }

    // MARK: Declaration files of an app

    /// A types.d holding `com.example.note` in a file that names `app` (or none).
    private func filesDeclaringANote(app: String?) throws -> (registry: TypeRegistry, directory: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pb-typefile-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: directory) }
        let member = app.map { "\"app\": \"\($0)\", " } ?? ""
        let json = "{\(member)\"types\": [{\"identifier\": \"com.example.note\", \"conformsTo\": [\"public.json\"], \"mimeTypes\": [\"application/x-note\"]}]}"
        try Data(json.utf8).write(to: URL(fileURLWithPath: directory + "/notes.json"))
        let (registry, errors) = TypeRegistry.loading(userTypesDirectory: directory)
        XCTAssertEqual(errors, [])
        return (registry, directory)
    }

    private let upgraded = TypeDeclaration(identifier: "com.example.note", conformsTo: [.json], mimeTypes: ["application/vnd.example.note+json"])

    func testAnAppReplacesTheDeclarationsOfItsOwnFileWhenItConnects() async throws {
        let (registry, directory) = try filesDeclaringANote(app: "rehearsal")
        XCTAssertEqual(registry.app(owningFileOf: "com.example.note"), "rehearsal")
        let rehearsal = RequestRehearsal(registry: registry)
        let declared = await rehearsal.perform(.declare(DeclareRequest(types: [upgraded])))
        XCTAssertEqual(declared, .answered(.ok(OK())), "the upgraded app's declaration replaces its installed file's")
        XCTAssertEqual(rehearsal.store.registry.declaration(for: "com.example.note"), upgraded)
        XCTAssertEqual(rehearsal.store.registry.type(forMIMEType: "application/vnd.example.note+json"), "com.example.note")
        // A reload that finds the file unchanged keeps the app's newer declaration: the file is the app's own.
        let reload = rehearsal.store.replaceFileTypes(with: TypeRegistry.loading(userTypesDirectory: directory).registry)
        XCTAssertEqual(reload.dropped, [])
        XCTAssertEqual(rehearsal.store.registry.declaration(for: "com.example.note"), upgraded)
    }

    func testAFileOfAnotherAppOrOfNoneIsNotAnAppsToReplace() async throws {
        for (owner, expected) in [("other", "the file of app 'other' (only that app may replace it)"), (nil, "(edit that file and reload pasteboardd to change it)")] {
            let (registry, directory) = try filesDeclaringANote(app: owner)
            let rehearsal = RequestRehearsal(registry: registry)
            guard case .refused(let error) = await rehearsal.perform(.declare(DeclareRequest(types: [upgraded]))) else {
                XCTFail("app 'rehearsal' replaced a declaration of \(owner ?? "no app")'s file")
                continue
            }
            XCTAssertEqual(error.code, .typeConflict, "a code the app can switch on")
            XCTAssertEqual(error.message, "types[0].identifier: type 'com.example.note' is already declared by \(directory)/notes.json, \(expected)"
                .replacingOccurrences(of: ", (edit", with: " (edit"))
        }
    }
}

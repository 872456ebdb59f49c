import Foundation
import PasteboardTypes
import XCTest

final class UserTypesTests: XCTestCase {
    private var directory: String!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("pasteboard-types-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func write(_ name: String, _ contents: String) throws {
        try Data(contents.utf8).write(to: URL(fileURLWithPath: directory).appendingPathComponent(name))
    }

    private func load() -> (registry: TypeRegistry, errors: [TypeDeclarationError]) {
        TypeRegistry.loading(userTypesDirectory: directory)
    }

    /// A valid declaration used to show that the rest of a file still loads.
    private let goodDeclaration = #"{"identifier": "com.example.good", "conformsTo": ["public.data"]}"#

    private func assertOneError(
        _ errors: [TypeDeclarationError], file: String, field: String, containing text: String,
        line: UInt = #line
    ) {
        XCTAssertEqual(errors.count, 1, "errors: \(errors)", line: line)
        guard let error = errors.first else { return }
        XCTAssertTrue(error.file.hasSuffix("/" + file), "file was \(error.file)", line: line)
        XCTAssertEqual(error.field, field, "\(error)", line: line)
        XCTAssertTrue(error.message.contains(text), "message was: \(error.message)", line: line)
        XCTAssertEqual(error.description, "\(error.file): \(error.field): \(error.message)", line: line)
    }

    /// Loads `file`, which holds `bad` and then the good declaration: exactly one error, at
    /// `field` and saying `text`; `bad` is not declared (when it names `rejected`) and the good
    /// one loads all the same.
    private func assertOnlyTheBadDeclarationIsRefused(
        _ bad: String, file: String, field: String, containing text: String, rejected: TypeIdentifier? = nil,
        line: UInt = #line
    ) throws {
        try write(file, "{\"types\": [\(bad), \(goodDeclaration)]}")
        let (registry, errors) = load()
        assertOneError(errors, file: file, field: field, containing: text, line: line)
        if let rejected { XCTAssertNil(registry.declaration(for: rejected), line: line) }
        XCTAssertNotNil(registry.declaration(for: "com.example.good"), line: line)
    }

    // MARK: Good files

    func testGoodFileLoadsAndConformsToItsParents() throws {
        try write("10-cad.json", """
            {"types": [
              {"identifier": "com.example.cad", "conformsTo": ["public.data", "public.content"],
               "mimeTypes": ["application/x-example-cad"], "filenameExtensions": ["cad"],
               "magic": [{"offset": 0, "bytes": "43414431"}], "description": "CAD drawing"},
              {"identifier": "com.example.cad-text", "conformsTo": ["com.example.cad", "public.plain-text"]}
            ]}
            """)
        let (registry, errors) = load()
        XCTAssertEqual(errors, [])
        let cad: TypeIdentifier = "com.example.cad"
        XCTAssertEqual(registry.declaration(for: cad)?.description, "CAD drawing")
        XCTAssertTrue(registry.conforms(cad, to: .data))
        XCTAssertTrue(registry.conforms(cad, to: .content))
        XCTAssertTrue(registry.conforms(cad, to: .item))
        XCTAssertFalse(registry.conforms(cad, to: .text))
        XCTAssertTrue(registry.conforms("com.example.cad-text", to: cad))
        XCTAssertTrue(registry.conforms("com.example.cad-text", to: .text))
        XCTAssertEqual(registry.type(forMIMEType: "application/x-example-cad"), cad)
        XCTAssertEqual(registry.type(forFilenameExtension: ".CAD"), cad)
        XCTAssertEqual(registry.resolve("com.example.cad"), cad)
        XCTAssertEqual(registry.sniff(prefix: Array("CAD1 drawing".utf8), isComplete: true, filename: "a.txt"), cad)
        XCTAssertNil(TypeRegistry.builtIn.declaration(for: cad), "built-ins are unchanged")
    }

    func testLaterFilesMayUseTypesFromEarlierFiles() throws {
        try write("20-child.json", #"{"types": [{"identifier": "com.example.child", "conformsTo": ["com.example.parent"]}]}"#)
        try write("10-parent.json", #"{"types": [{"identifier": "com.example.parent", "conformsTo": ["public.image"]}]}"#)
        try write("notes.txt", "not a declaration file")
        let (registry, errors) = load()
        XCTAssertEqual(errors, [])
        XCTAssertTrue(registry.conforms("com.example.child", to: .image))
    }

    func testParentLaterInTheSameFileIsFine() throws {
        try write("a.json", """
            {"types": [
              {"identifier": "com.example.child", "conformsTo": ["com.example.parent"]},
              {"identifier": "com.example.parent", "conformsTo": ["public.data"]}
            ]}
            """)
        let (registry, errors) = load()
        XCTAssertEqual(errors, [])
        XCTAssertEqual(registry.supertypes(of: "com.example.child"), ["com.example.parent", .data, .item])
    }

    func testMissingOrAbsentDirectoryIsNotAnError() {
        let missing = TypeRegistry.loading(userTypesDirectory: directory + "/does-not-exist")
        XCTAssertEqual(missing.errors, [])
        XCTAssertEqual(missing.registry.declarations, TypeRegistry.builtIn.declarations)
        XCTAssertEqual(TypeRegistry.loading(userTypesDirectory: nil).errors, [])
    }

    // MARK: Bad files and declarations

    func testUnparsableJSONSkipsTheFileButOthersLoad() throws {
        try write("broken.json", #"{"types": [ {"identifier": "com.example.x", "#)
        try write("ok.json", "{\"types\": [\(goodDeclaration)]}")
        let (registry, errors) = load()
        assertOneError(errors, file: "broken.json", field: "(file)", containing: "not valid JSON")
        XCTAssertNotNil(registry.declaration(for: "com.example.good"))
        XCTAssertNil(registry.declaration(for: "com.example.x"))
    }

    func testWrongTopLevel() throws {
        try write("a.json", #"[1, 2]"#)
        try write("b.json", #"{"typos": []}"#)
        let errors = load().errors
        XCTAssertEqual(errors.map(\.field), ["(file)", "typos", "types"])
        XCTAssertTrue(errors[0].file.hasSuffix("/a.json"))
        XCTAssertTrue(errors[1].message.contains("unknown field 'typos'"))
        XCTAssertTrue(errors[2].message.contains("missing required field 'types'"))
    }

    func testMissingField() throws {
        try assertOnlyTheBadDeclarationIsRefused(#"{"conformsTo": ["public.data"]}"#, file: "missing.json", field: "types[0].identifier",
                                                 containing: "missing required field")
    }

    func testMissingConformsTo() throws {
        try assertOnlyTheBadDeclarationIsRefused(#"{"identifier": "com.example.orphan"}"#, file: "missing.json", field: "types[0].conformsTo",
                                                 containing: "missing required field", rejected: "com.example.orphan")
    }

    func testWrongTypedField() throws {
        try write("typed.json", """
            {"types": [{"identifier": "com.example.bad", "conformsTo": "public.data"},
                       {"identifier": "com.example.bad2", "conformsTo": ["public.data", 7]},
                       \(goodDeclaration)]}
            """)
        let (registry, errors) = load()
        XCTAssertEqual(errors.map(\.field), ["types[0].conformsTo", "types[1].conformsTo[1]"])
        XCTAssertTrue(errors[0].message.contains("expected an array of strings, found a string"))
        XCTAssertTrue(errors[1].message.contains("expected a string, found a number"))
        XCTAssertNil(registry.declaration(for: "com.example.bad"))
        XCTAssertNil(registry.declaration(for: "com.example.bad2"))
        XCTAssertNotNil(registry.declaration(for: "com.example.good"))
    }

    func testUnknownKey() throws {
        try assertOnlyTheBadDeclarationIsRefused(#"{"identifier": "com.example.x", "conformsTo": ["public.data"], "mimetype": "a/b"}"#,
                                                 file: "unknown.json", field: "types[0].mimetype", containing: "unknown field 'mimetype'",
                                                 rejected: "com.example.x")
    }

    func testInvalidIdentifiers() throws {
        let bad = ["", "nodot", "has space.x", "dyn.mime.x", "com..example", "com.ex/ample", "ünï.code"]
        let list = bad.map { #"{"identifier": "\#($0)", "conformsTo": ["public.data"]}"# }
        try write("ids.json", "{\"types\": [\(list.joined(separator: ", ")), \(goodDeclaration)]}")
        let (registry, errors) = load()
        XCTAssertEqual(errors.map(\.field), bad.indices.map { "types[\($0)].identifier" })
        XCTAssertTrue(errors[0].message.contains("empty"), errors[0].message)
        XCTAssertTrue(errors[1].message.contains("at least one dot"), errors[1].message)
        XCTAssertTrue(errors[3].message.contains("reserved"), errors[3].message)
        XCTAssertNotNil(registry.declaration(for: "com.example.good"))
        XCTAssertEqual(registry.declarations.count, TypeRegistry.builtIn.declarations.count + 1)
    }

    func testUnknownParent() throws {
        try assertOnlyTheBadDeclarationIsRefused(#"{"identifier": "com.example.x", "conformsTo": ["public.data", "public.nope"]}"#,
                                                 file: "parent.json", field: "types[0].conformsTo[1]", containing: "unknown parent type 'public.nope'",
                                                 rejected: "com.example.x")
    }

    func testCycleReportsEveryMemberAndSkipsThem() throws {
        try write("cycle.json", """
            {"types": [
              {"identifier": "com.example.a", "conformsTo": ["com.example.b"]},
              {"identifier": "com.example.b", "conformsTo": ["public.data", "com.example.c"]},
              {"identifier": "com.example.c", "conformsTo": ["com.example.a"]},
              {"identifier": "com.example.self", "conformsTo": ["com.example.self"]},
              \(goodDeclaration)
            ]}
            """)
        let (registry, errors) = load()
        XCTAssertEqual(
            errors.map(\.field),
            ["types[0].conformsTo[0]", "types[1].conformsTo[1]", "types[2].conformsTo[0]", "types[3].conformsTo[0]"])
        for error in errors.prefix(3) {
            XCTAssertTrue(error.message.contains("cycle"), error.message)
            XCTAssertTrue(error.message.contains("'com.example.a', 'com.example.b', 'com.example.c'"), error.message)
        }
        XCTAssertTrue(errors[3].message.contains("itself"), errors[3].message)
        for id in ["com.example.a", "com.example.b", "com.example.c", "com.example.self"] {
            XCTAssertNil(registry.declaration(for: TypeIdentifier(id)))
        }
        XCTAssertNotNil(registry.declaration(for: "com.example.good"))
    }

    func testClashingIdentifiers() throws {
        try write("10-first.json", #"{"types": [{"identifier": "com.example.dup", "conformsTo": ["public.data"]}]}"#)
        try write("20-second.json", """
            {"types": [
              {"identifier": "public.png", "conformsTo": ["public.data"]},
              {"identifier": "com.example.dup", "conformsTo": ["public.text"]},
              {"identifier": "com.example.twice", "conformsTo": ["public.data"]},
              {"identifier": "com.example.twice", "conformsTo": ["public.text"]},
              \(goodDeclaration)
            ]}
            """)
        let (registry, errors) = load()
        XCTAssertEqual(errors.map(\.field), ["types[0].identifier", "types[1].identifier", "types[3].identifier"])
        XCTAssertTrue(errors.allSatisfy { $0.file.hasSuffix("/20-second.json") })
        XCTAssertTrue(errors[0].message.contains("'public.png' is already declared by built-in"), errors[0].message)
        XCTAssertTrue(errors[1].message.contains("already declared by \(directory!)/10-first.json"), errors[1].message)
        XCTAssertTrue(errors[2].message.contains("declared twice"), errors[2].message)
        XCTAssertTrue(registry.conforms(.png, to: .image), "the built-in stands")
        XCTAssertFalse(registry.conforms("com.example.dup", to: .text), "the first declaration stands")
        XCTAssertFalse(registry.conforms("com.example.twice", to: .text), "the first declaration stands")
        XCTAssertNotNil(registry.declaration(for: "com.example.good"))
    }

    func testInvalidMagic() throws {
        try write("magic.json", """
            {"types": [
              {"identifier": "com.example.m1", "conformsTo": ["public.data"], "magic": [{"offset": 0, "bytes": "zz"}]},
              {"identifier": "com.example.m2", "conformsTo": ["public.data"], "magic": [{"bytes": "abc"}]},
              {"identifier": "com.example.m3", "conformsTo": ["public.data"], "magic": [{"offset": -1, "bytes": "ab"}]},
              {"identifier": "com.example.m4", "conformsTo": ["public.data"], "magic": [{"offset": 0, "bytes": "ab", "mask": "ff"}]},
              {"identifier": "com.example.m5", "conformsTo": ["public.data"], "magic": [{"offset": 4, "bytes": "AbCd"}]}
            ]}
            """)
        let (registry, errors) = load()
        XCTAssertEqual(
            errors.map(\.field),
            ["types[0].magic[0].bytes", "types[1].magic[0].bytes", "types[2].magic[0].offset", "types[3].magic[0].mask"])
        XCTAssertTrue(errors[0].message.contains("invalid magic hex string 'zz'"), errors[0].message)
        XCTAssertEqual(registry.declaration(for: "com.example.m5")?.magic, [MagicPattern(offset: 4, bytes: [0xAB, 0xCD])])
        XCTAssertNil(registry.declaration(for: "com.example.m1"))
    }

    /// An offset is an integer as the protocol writes one, and a member is given once.
    func testAMagicOffsetIsWrittenAsAnIntegerAndMembersOnce() throws {
        try write("offsets.json", """
            {"types": [
              {"identifier": "com.example.o1", "conformsTo": ["public.data"], "magic": [{"offset": 1.0, "bytes": "ab"}]},
              {"identifier": "com.example.o2", "conformsTo": ["public.data"], "magic": [{"offset": 1e0, "bytes": "ab"}]},
              {"identifier": "com.example.o3", "conformsTo": ["public.data"], "magic": [{"offset": 1048577, "bytes": "ab"}]},
              {"identifier": "com.example.o4", "conformsTo": ["public.data"], "magic": [{"offset": 1048576, "bytes": "ab"}]}
            ]}
            """)
        let (registry, errors) = load()
        XCTAssertEqual(errors.map(\.field), ["types[0].magic[0].offset", "types[1].magic[0].offset", "types[2].magic[0].offset"])
        XCTAssertTrue(errors[0].message.contains("found 1.0"), errors[0].message)
        XCTAssertEqual(registry.declaration(for: "com.example.o4")?.magic, [MagicPattern(offset: 1_048_576, bytes: [0xAB])])

        try write("offsets.json", """
            {"types": [{"identifier": "com.example.d1", "conformsTo": ["public.data"], "identifier": "com.example.d2"}]}
            """)
        let (again, repeated) = load()
        XCTAssertNil(again.declaration(for: "com.example.d2"))
        XCTAssertTrue(repeated.contains { $0.message.contains("appears more than once") }, "\(repeated)")
    }

    func testInvalidTags() throws {
        try write("tags.json", """
            {"types": [
              {"identifier": "com.example.t1", "conformsTo": ["public.data"], "filenameExtensions": [".foo"]},
              {"identifier": "com.example.t2", "conformsTo": ["public.data"], "mimeTypes": ["foo"]}
            ]}
            """)
        let errors = load().errors
        XCTAssertEqual(errors.map(\.field), ["types[0].filenameExtensions[0]", "types[1].mimeTypes[0]"])
    }

    func testChildOfARejectedParentIsRejectedSayingSo() throws {
        try write("10-a.json", """
            {"types": [
              {"identifier": "com.example.badparent", "conformsTo": ["public.data"], "magic": [{"bytes": "q"}]},
              {"identifier": "com.example.child", "conformsTo": ["com.example.badparent"]},
              {"identifier": "com.example.cyclechild", "conformsTo": ["com.example.c1"]},
              {"identifier": "com.example.c1", "conformsTo": ["com.example.c2"]},
              {"identifier": "com.example.c2", "conformsTo": ["com.example.c1"]},
              {"identifier": "com.example.orphanchild", "conformsTo": ["com.example.orphan"]},
              {"identifier": "com.example.orphan", "conformsTo": ["public.nope"]},
              \(goodDeclaration)
            ]}
            """)
        try write("20-b.json", #"{"types": [{"identifier": "com.example.grandchild", "conformsTo": ["com.example.child"]}]}"#)
        let (registry, errors) = load()
        let byField = Dictionary(errors.map { ($0.field, $0) }, uniquingKeysWith: { a, _ in a })
        XCTAssertEqual(byField["types[1].conformsTo[0]"]?.message, "parent type 'com.example.badparent' was rejected")
        XCTAssertEqual(byField["types[2].conformsTo[0]"]?.message, "parent type 'com.example.c1' was rejected")
        XCTAssertEqual(byField["types[5].conformsTo[0]"]?.message, "parent type 'com.example.orphan' was rejected")
        XCTAssertEqual(byField["types[6].conformsTo[0]"]?.message, "unknown parent type 'public.nope'")
        let last = try XCTUnwrap(errors.last)
        XCTAssertTrue(last.file.hasSuffix("/20-b.json"))
        XCTAssertEqual(last.field, "types[0].conformsTo[0]")
        XCTAssertEqual(last.message, "parent type 'com.example.child' was rejected")
        XCTAssertEqual(
            errors.filter { $0.file.hasSuffix("/10-a.json") }.map(\.field),
            ["types[0].magic[0].bytes", "types[1].conformsTo[0]", "types[2].conformsTo[0]", "types[3].conformsTo[0]",
             "types[4].conformsTo[0]", "types[5].conformsTo[0]", "types[6].conformsTo[0]"],
            "errors come in file order")
        XCTAssertNotNil(registry.declaration(for: "com.example.good"))
        XCTAssertEqual(registry.declarations.count, TypeRegistry.builtIn.declarations.count + 1)
    }

    // MARK: The in-memory API used by apps

    func testAddingFromAnApp() {
        let declarations = [
            TypeDeclaration(identifier: "org.app.doc", conformsTo: [.json], mimeTypes: ["application/x-app-doc"]),
            TypeDeclaration(identifier: "org.app.bad", conformsTo: ["org.app.missing"]),
        ]
        let result = TypeRegistry.builtIn.adding(declarations, source: "Sketcher")
        XCTAssertEqual(result.errors, [
            TypeDeclarationError(file: "Sketcher", field: "types[1].conformsTo[0]", message: "unknown parent type 'org.app.missing'"),
        ])
        XCTAssertTrue(result.registry.conforms("org.app.doc", to: .text))
        XCTAssertEqual(result.registry.type(forMIMEType: "application/x-app-doc"), "org.app.doc")
    }

    func testInitThrowsTheFirstProblem() {
        XCTAssertThrowsError(try TypeRegistry(declarations: [TypeDeclaration(identifier: "bad")])) { error in
            XCTAssertEqual((error as? TypeDeclarationError)?.field, "types[0].identifier")
        }
        let registry = try? TypeRegistry(declarations: [
            TypeDeclaration(identifier: "x.root"), TypeDeclaration(identifier: "x.leaf", conformsTo: ["x.root"]),
        ])
        XCTAssertEqual(registry?.supertypes(of: "x.leaf"), ["x.root"])
    }

    func testParseDeclarationFileReportsParseErrorsOnly() {
        let data = Data(#"{"types": [{"identifier": "x.y", "conformsTo": ["nope.nope"]}, {"identifier": 3}]}"#.utf8)
        let parsed = TypeRegistry.parseDeclarationFile(data, source: "app")
        XCTAssertEqual(parsed.declarations.map(\.identifier), ["x.y"])
        XCTAssertEqual(parsed.errors.map(\.description), [
            "app: types[1].identifier: expected a string, found a number",
            "app: types[1].conformsTo: missing required field 'conformsTo' (use [\"public.data\"] or another parent; [] only for a new root)",
        ])
    }
}

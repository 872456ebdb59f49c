#if canImport(Glibc)
import Glibc
#endif
import Foundation
import PasteboardTypes
import XCTest

/// Conformance of undeclared MIME types from shared-mime-info, with the database in
/// `Tests/Fixtures/shared-mime-info/mime` (never the system's).
final class SharedMIMEInfoTests: XCTestCase {
    /// `Tests/Fixtures/shared-mime-info/mime`.
    static let fixture = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Tests/PasteboardTypesTests
        .deletingLastPathComponent()  // Tests
        .appendingPathComponent("Fixtures/shared-mime-info/mime").path

    let registry = TypeRegistry.builtIn.usingSharedMIMEInfo(from: [SharedMIMEInfoTests.fixture])
    private var scratch: URL!

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("smi-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: scratch)
    }

    /// A `mime` directory under the scratch directory holding `subclasses` and `aliases` (nil: no file).
    private func database(_ name: String, subclasses: Data?, aliases: Data? = nil) throws -> String {
        let directory = scratch.appendingPathComponent(name).appendingPathComponent("mime")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try subclasses?.write(to: directory.appendingPathComponent("subclasses"))
        try aliases?.write(to: directory.appendingPathComponent("aliases"))
        return directory.path
    }

    private func dynamic(_ mime: String) -> TypeIdentifier { .dynamic(mimeType: mime) }

    // MARK: Parent chains

    func testParentsChainThroughTheDatabaseAndDeclaredTypes() {
        let python = registry.type(forMIMEType: "text/x-python")
        XCTAssertEqual(python, dynamic("text/x-python"))
        XCTAssertEqual(registry.supertypes(of: python), [
            dynamic("application/x-executable"), .plainText, .data, .text, .item, .content,
        ])
        XCTAssertTrue(registry.conforms(python, to: .plainText))
        XCTAssertTrue(registry.conforms(python, to: dynamic("application/x-executable")))
        XCTAssertFalse(registry.conforms(python, to: .image))
        XCTAssertEqual(registry.declaration(for: python)?.conformsTo, [dynamic("application/x-executable"), .plainText])

        let python3 = dynamic("text/x-python3")
        XCTAssertEqual(Array(registry.supertypes(of: python3).prefix(3)), [python, .plainText, dynamic("application/x-executable")])
        XCTAssertTrue(registry.conforms(python3, to: python))
        XCTAssertFalse(registry.conforms(python, to: python3))

        let cplusplus = dynamic("text/x-c++src")
        XCTAssertEqual(registry.supertypes(of: cplusplus), [dynamic("text/x-csrc"), .plainText, .text, .data, .content, .item])
    }

    func testNonTextTypesConformToDataThroughTheirParents() {
        let tarball = dynamic("application/x-compressed-tar")
        XCTAssertEqual(registry.supertypes(of: tarball), [dynamic("application/gzip"), .data, .item])
        XCTAssertFalse(registry.conforms(tarball, to: .text))
        let script = dynamic("application/x-shellscript")
        XCTAssertTrue(registry.conforms(script, to: .plainText), "a parent may be textual though the type is not text/*")
        XCTAssertEqual(registry.declaration(for: dynamic("application/x-executable"))?.conformsTo, [.data])
        XCTAssertEqual(registry.supertypes(of: dynamic("application/octet-stream")), [.data, .item])
    }

    func testCyclesInTheDatabaseEndAndStillReachData() {
        let a = dynamic("application/x-loop-a"), b = dynamic("application/x-loop-b")
        XCTAssertEqual(registry.supertypes(of: a), [b, .data, .item])
        XCTAssertTrue(registry.conforms(b, to: a))
    }

    // MARK: Aliases

    func testAliasesResolveToTheirCanonicalType() {
        XCTAssertEqual(registry.type(forMIMEType: "text/x-c"), dynamic("text/x-csrc"))
        XCTAssertEqual(registry.type(forMIMEType: "Text/X-C; charset=utf-8"), dynamic("text/x-csrc"))
        XCTAssertEqual(registry.resolve("text/x-python2"), dynamic("text/x-python"))
        XCTAssertEqual(registry.resolve("application/x-pdf"), .pdf, "an alias of a declared MIME type is that type")
        // An identifier made elsewhere from the alias still conforms through the canonical type.
        XCTAssertEqual(registry.supertypes(of: dynamic("text/x-c")).first, dynamic("text/x-csrc"))
        XCTAssertTrue(registry.conforms(dynamic("application/x-pdf"), to: .pdf))
        XCTAssertTrue(registry.conforms(dynamic("text/x-c"), to: .plainText))
    }

    func testDynamicIdentifiersWithCaseOrParametersConformThroughTheirMIMEType() {
        let python = dynamic("text/x-python")
        for raw in ["dyn.mime.Text/X-Python", "dyn.mime.text/x-python;charset=utf-8"] {
            XCTAssertEqual(registry.supertypes(of: TypeIdentifier(raw)).first, python, raw)
            XCTAssertTrue(registry.conforms(TypeIdentifier(raw), to: .plainText), raw)
        }
    }

    func testAnAliasListedTwiceKeepsItsFirstCanonicalType() {
        let info = SharedMIMEInfo(subclasses: "", aliases: "text/x-c text/x-csrc\ntext/x-c text/x-other\n")
        XCTAssertEqual(info.canonicalType(ofAlias: "text/x-c"), "text/x-csrc")
    }

    // MARK: Implicit rules

    func testEveryTextTypeIsPlainTextAndEverythingIsData() {
        let unknownText = registry.type(forMIMEType: "text/x-unknown-to-the-database")
        XCTAssertEqual(registry.supertypes(of: unknownText), [.plainText, .text, .data, .content, .item])
        let unknownOther = registry.type(forMIMEType: "application/x-unknown-to-the-database")
        XCTAssertEqual(registry.supertypes(of: unknownOther), [.data, .item])
        XCTAssertEqual(registry.declaration(for: unknownOther)?.conformsTo, [.data])
    }

    func testNegotiationUsesTheChain() {
        let python = dynamic("text/x-python")
        XCTAssertEqual(registry.chooseRepresentation(among: [python], accepting: [.plainText, .text]), 0)
        XCTAssertEqual(registry.chooseRepresentation(among: [.html, python], accepting: [.plainText]), 1)
        XCTAssertNil(TypeRegistry.builtIn.chooseRepresentation(among: [.html, python], accepting: [.plainText]))
    }

    // MARK: Declared types win

    func testDeclaredTypesWinOverTheDatabase() throws {
        XCTAssertEqual(registry.type(forMIMEType: "text/plain"), .plainText, "a declared MIME type is not an alias")
        XCTAssertEqual(registry.supertypes(of: .html), TypeRegistry.builtIn.supertypes(of: .html))
        XCTAssertEqual(registry.supertypes(of: .svgImage), TypeRegistry.builtIn.supertypes(of: .svgImage))
        XCTAssertEqual(registry.supertypes(of: .pdf), TypeRegistry.builtIn.supertypes(of: .pdf))
        // A dynamic identifier of a declared MIME type conforms through the declared type.
        XCTAssertEqual(registry.supertypes(of: dynamic("text/plain")).first, .plainText)

        // A user declaration of text/x-python replaces the database's view of it, and its children follow.
        let recipe = TypeDeclaration(identifier: "com.example.python", conformsTo: [.text], mimeTypes: ["text/x-python"])
        let (declared, errors) = registry.adding([recipe], source: "test")
        XCTAssertEqual(errors, [])
        XCTAssertEqual(declared.type(forMIMEType: "text/x-python"), "com.example.python")
        XCTAssertEqual(declared.resolve("text/x-python2"), "com.example.python", "an alias of a declared type")
        XCTAssertEqual(declared.supertypes(of: "com.example.python"), [.text, .data, .content, .item])
        XCTAssertEqual(Array(declared.supertypes(of: dynamic("text/x-python3")).prefix(2)), ["com.example.python", .plainText])
    }

    // MARK: Malformed input

    func testMalformedLinesAreSkipped() {
        let info = SharedMIMEInfo(contentsOf: [Self.fixture])
        for mime in ["this", "text/x-lonely", "text/x-three", "/", "text/", "notamime", "#text/x-commented", "garbage"] {
            XCTAssertEqual(info.parents(of: mime), [], mime)
            XCTAssertNil(info.canonicalType(ofAlias: mime), mime)
        }
        XCTAssertEqual(registry.supertypes(of: dynamic("text/x-three")), [.plainText, .text, .data, .content, .item])
        XCTAssertEqual(registry.supertypes(of: dynamic("text/x-tabbed")).first, dynamic("text/x-csrc"), "tabs separate fields")

        let text = SharedMIMEInfo(
            subclasses: "a/b c/d e/f\n\n#x/y z/w\r\ntext/x-crlf text/x-csrc\r\n  text/x-indented   text/plain  \n/ x/y\nx/ y/z\n",
            aliases: "one\nx/y\n")
        XCTAssertEqual(text.parents(of: "a/b"), [])
        XCTAssertEqual(text.parents(of: "#x/y"), [])
        XCTAssertEqual(text.parents(of: "text/x-crlf"), ["text/x-csrc"])
        XCTAssertEqual(text.parents(of: "text/x-indented"), ["text/plain"])
        XCTAssertEqual(text.parents(of: "/"), [])
        XCTAssertNil(text.canonicalType(ofAlias: "one"))
        XCTAssertNil(text.canonicalType(ofAlias: "x/y"))
    }

    func testGarbledUnreadableAndOddFilesAreSkippedWithoutCrashing() throws {
        var garbage = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919) })
        garbage += Data("\ntext/x-after-garbage text/x-csrc\n".utf8) + Data([0xff, 0xfe, 0x00]) + Data(" text/plain\n".utf8)
        let garbled = try database("garbled", subclasses: garbage, aliases: Data([0x00, 0xc3, 0x28, 0x0a]))
        let info = SharedMIMEInfo(contentsOf: [garbled])
        XCTAssertEqual(info.parents(of: "text/x-after-garbage"), ["text/x-csrc"])

        // A directory where a file should be, a FIFO (reading it would block), an unreadable file.
        let odd = try database("odd", subclasses: nil)
        try FileManager.default.createDirectory(atPath: odd + "/subclasses", withIntermediateDirectories: true)
        XCTAssertEqual(mkfifo(odd + "/aliases", 0o600), 0)
        let unreadable = try database("unreadable", subclasses: Data("text/x-secret text/x-csrc\n".utf8))
        try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: unreadable + "/subclasses")
        let combined = SharedMIMEInfo(contentsOf: [odd, unreadable, garbled])
        XCTAssertEqual(combined.parents(of: "text/x-after-garbage"), ["text/x-csrc"])
        // Mode 0 keeps everyone out but root, who reads any file: what the reader makes of the
        // file depends on who runs the test, so each case is said.
        if getuid() == 0 {
            XCTAssertEqual(combined.parents(of: "text/x-secret"), ["text/x-csrc"], "root reads a file of mode 0")
        } else {
            XCTAssertEqual(combined.parents(of: "text/x-secret"), [], "an unreadable file is skipped")
        }
    }

    func testASymbolicLinkToTheFilesIsFollowed() throws {
        let linked = try database("linked", subclasses: nil)
        try FileManager.default.createSymbolicLink(atPath: linked + "/subclasses", withDestinationPath: Self.fixture + "/subclasses")
        XCTAssertEqual(SharedMIMEInfo(contentsOf: [linked]).parents(of: "text/x-csrc"), ["text/plain"])
    }

    // MARK: Several directories, and none

    func testEarlierDirectoriesWin() throws {
        let user = try database("user", subclasses: Data("text/x-python text/x-csrc\n".utf8), aliases: Data("text/x-c text/x-user-c\n".utf8))
        let info = SharedMIMEInfo(contentsOf: [user, Self.fixture])
        XCTAssertEqual(info.parents(of: "text/x-python"), ["text/x-csrc"], "the first directory listing a type gives all its parents")
        XCTAssertEqual(info.parents(of: "text/x-python3"), ["text/x-python"], "other types still come from later directories")
        XCTAssertEqual(info.canonicalType(ofAlias: "text/x-c"), "text/x-user-c")
        XCTAssertEqual(info.canonicalType(ofAlias: "text/x-python2"), "text/x-python")
    }

    func testWithoutADatabaseEverythingWorksAsBefore() throws {
        let empty = try database("empty", subclasses: nil)
        for directories in [[], ["/nonexistent/mime"], [empty]] {
            let without = TypeRegistry.builtIn.usingSharedMIMEInfo(from: directories)
            for mime in ["text/x-python", "text/x-c", "application/x-shellscript", "image/svg+xml", "text/plain"] {
                let type = without.type(forMIMEType: mime)
                XCTAssertEqual(type, TypeRegistry.builtIn.type(forMIMEType: mime), mime)
                XCTAssertEqual(without.supertypes(of: type), TypeRegistry.builtIn.supertypes(of: type), mime)
                XCTAssertEqual(without.declaration(for: type), TypeRegistry.builtIn.declaration(for: type), mime)
                XCTAssertEqual(without.conforms(type, to: .plainText), TypeRegistry.builtIn.conforms(type, to: .plainText), mime)
            }
        }
    }

    func testTheDatabaseIsReadOnFirstUseOnlyAndOnce() throws {
        let later = scratch.appendingPathComponent("later/mime")
        let lazy = TypeRegistry.builtIn.usingSharedMIMEInfo(from: [later.path])
        func write(subclasses: String, aliases: String) throws {
            try FileManager.default.createDirectory(at: later, withIntermediateDirectories: true)
            try Data(subclasses.utf8).write(to: later.appendingPathComponent("subclasses"))
            try Data(aliases.utf8).write(to: later.appendingPathComponent("aliases"))
        }
        // Declared types never read it.
        XCTAssertEqual(lazy.type(forMIMEType: "text/html"), .html)
        XCTAssertTrue(lazy.conforms(.png, to: .image))
        try write(subclasses: "", aliases: "text/x-py text/x-python\n")
        // Resolving an undeclared MIME type reads the aliases only.
        XCTAssertEqual(lazy.type(forMIMEType: "text/x-py"), dynamic("text/x-python"), "read at first use, not when built")
        try write(subclasses: "text/x-python text/x-csrc\n", aliases: "text/x-late text/x-python\n")
        XCTAssertEqual(lazy.type(forMIMEType: "text/x-late"), dynamic("text/x-late"), "the aliases are read once")
        // Relating one reads the subclasses, once, shared with derived registries.
        let derived = lazy.adding([TypeDeclaration(identifier: "com.example.late", conformsTo: [.data])], source: "test").registry
        XCTAssertTrue(derived.conforms(dynamic("text/x-python"), to: dynamic("text/x-csrc")))
        try write(subclasses: "text/x-python image/png\n", aliases: "")
        XCTAssertTrue(lazy.conforms(dynamic("text/x-python"), to: dynamic("text/x-csrc")))
        XCTAssertFalse(lazy.conforms(dynamic("text/x-python"), to: .png))
    }

    func testDatabaseDirectoriesFollowTheXDGBaseDirectorySpec() {
        XCTAssertEqual(SharedMIMEInfo.databaseDirectories(environment: [:]), ["/usr/local/share/mime", "/usr/share/mime"])
        XCTAssertEqual(SharedMIMEInfo.databaseDirectories(environment: ["HOME": "/home/u", "XDG_DATA_DIRS": ""]),
                       ["/home/u/.local/share/mime", "/usr/local/share/mime", "/usr/share/mime"])
        XCTAssertEqual(SharedMIMEInfo.databaseDirectories(environment: [
            "HOME": "/home/u", "XDG_DATA_HOME": "/data/", "XDG_DATA_DIRS": "/opt/share:relative::/usr/share/:/opt/share",
        ]), ["/data/mime", "/opt/share/mime", "/usr/share/mime"])
        XCTAssertEqual(SharedMIMEInfo.databaseDirectories(environment: ["XDG_DATA_HOME": "relative", "XDG_DATA_DIRS": "/d"]), ["/d/mime"])
    }

    func testLoadingFromTheEnvironmentUsesTheDataDirectories() {
        let root = URL(fileURLWithPath: Self.fixture).deletingLastPathComponent().path
        let environment = ["XDG_DATA_DIRS": root, "XDG_DATA_HOME": scratch.path, "XDG_CONFIG_HOME": scratch.path]
        let (loaded, errors) = TypeRegistry.loading(environment: environment)
        XCTAssertEqual(errors, [])
        XCTAssertTrue(loaded.conforms(dynamic("text/x-python"), to: dynamic("application/x-executable")))
    }
}

import Foundation
import Glibc
import Pasteboard
import PasteboardTypes
import Testing

/// `TypeDeclaration.install`: an app's declarations written as the user's types.d file, checked
/// first, whole or not at all, in a directory of the user's own.
struct TypeInstallTests {
    /// A temporary `XDG_CONFIG_HOME` (not created: install makes it), and the environment naming it.
    final class ConfigHome {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("pb-install-\(UUID().uuidString.prefix(8))").path
        var config: String { root + "/config" }
        var types: String { config + "/pasteboard/types.d" }
        var environment: [String: String] { ["XDG_CONFIG_HOME": config, "HOME": root] }

        init() throws { try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(atPath: root) }

        func write(_ name: String, _ json: String) throws {
            try FileManager.default.createDirectory(atPath: types, withIntermediateDirectories: true)
            try Data(json.utf8).write(to: URL(fileURLWithPath: types + "/" + name))
        }

        func mode(_ path: String) -> mode_t {
            var info = stat()
            return stat(path, &info) == 0 ? info.st_mode & 0o7777 : 0
        }
    }

    let note = TypeDeclaration(
        identifier: "com.example.note", conformsTo: [.json], mimeTypes: ["application/x-note"], filenameExtensions: ["note"],
        magic: [MagicPattern(offset: 0, bytes: Array("NOTE".utf8))], description: "A note")
    let memo = TypeDeclaration(identifier: "com.example.memo", conformsTo: ["com.example.note"])

    @Test func writesTheFileThatLoadsBackInADirectoryMadeForTheUser() throws {
        let home = try ConfigHome()
        let path = try TypeDeclaration.install([note, memo], fileName: "com.example.notes", environment: home.environment)
        #expect(path == home.types + "/com.example.notes.json")
        #expect(home.mode(path) == 0o644)
        for directory in [home.config, home.config + "/pasteboard", home.types] {
            #expect(home.mode(directory) == 0o700, "\(directory)")
        }
        let (registry, errors) = TypeRegistry.loading(environment: home.environment)
        #expect(errors.isEmpty)
        #expect(registry.declaration(for: "com.example.note") == note)
        #expect(registry.conforms("com.example.memo", to: .text))
        #expect(registry.source(of: "com.example.memo") == path)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.hasPrefix("{\n"), "indented for people: \(text)")
        #expect(text.hasSuffix("}\n"))
    }

    @Test func installingAgainReplacesTheFileAndLeavesNothingElse() throws {
        let home = try ConfigHome()
        try TypeDeclaration.install([note, memo], fileName: "notes.json", environment: home.environment)
        var newer = note
        newer.mimeTypes = ["application/vnd.example.note"]
        try TypeDeclaration.install([newer], fileName: "notes", environment: home.environment)
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.types) == ["notes.json"], "no temporary file is left")
        let registry = TypeRegistry.loading(environment: home.environment).registry
        #expect(registry.declaration(for: "com.example.note") == newer)
        #expect(registry.declaration(for: "com.example.memo") == nil, "memo was dropped with the old file")
    }

    @Test func theFileNamesItsAppTheFileNameByDefault() throws {
        let home = try ConfigHome()
        try TypeDeclaration.install([note], fileName: "com.example.notes", environment: home.environment)
        try TypeDeclaration.install([memo], fileName: "memos", app: "Memo Pad", environment: home.environment)
        let registry = TypeRegistry.loading(environment: home.environment).registry
        #expect(registry.app(owningFileOf: "com.example.note") == "com.example.notes")
        #expect(registry.app(owningFileOf: "com.example.memo") == "Memo Pad")
        let text = try String(contentsOfFile: home.types + "/memos.json", encoding: .utf8)
        #expect(text.contains(#""app" : "Memo Pad""#), "pasteboard-types(5)'s app member: \(text)")
    }

    @Test func aBadDeclarationThrowsBeforeAnythingIsWritten() throws {
        let home = try ConfigHome()
        let orphan = TypeDeclaration(identifier: "com.example.orphan", conformsTo: ["com.example.nowhere"])
        let error = try #require(throws: TypeDeclarationError.self) {
            try TypeDeclaration.install([note, orphan], fileName: "notes", environment: home.environment)
        }
        #expect(error.file == home.types + "/notes.json")
        #expect(error.field == "types[1].conformsTo[0]")
        #expect(error.message == "unknown parent type 'com.example.nowhere'")
        #expect(!FileManager.default.fileExists(atPath: home.config), "not even the directory was made")
    }

    @Test func aClashWithAnotherFileOrTheBuiltInTypesIsRefusedNamingIt() throws {
        let home = try ConfigHome()
        try home.write("a.json", #"{"types":[{"identifier":"com.example.note","conformsTo":["public.data"]}]}"#)
        let earlier = try #require(throws: TypeDeclarationError.self) {
            try TypeDeclaration.install([note], fileName: "notes", environment: home.environment)
        }
        #expect(earlier.message == "type 'com.example.note' is already declared by \(home.types)/a.json")

        // A file that sorts after the new one would lose its declaration: refused too, naming it.
        let later = try #require(throws: TypeDeclarationError.self) {
            try TypeDeclaration.install([note], fileName: "0-notes", environment: home.environment)
        }
        #expect(later.file == home.types + "/a.json")
        #expect(later.message == "type 'com.example.note' is already declared by \(home.types)/0-notes.json, once 0-notes.json is installed")

        let png = TypeDeclaration(identifier: .png, conformsTo: [.image])
        let builtIn = try #require(throws: TypeDeclarationError.self) {
            try TypeDeclaration.install([png], fileName: "png", environment: home.environment)
        }
        #expect(builtIn.message == "type 'public.png' is already declared by built-in")
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.types) == ["a.json"])
    }

    @Test func aReplacementThatWouldBreakAnotherFileIsRefusedButOldProblemsDoNotStopIt() throws {
        let home = try ConfigHome()
        try TypeDeclaration.install([note], fileName: "notes", environment: home.environment)
        try home.write("z-memo.json", #"{"types":[{"identifier":"com.example.memo","conformsTo":["com.example.note"]}]}"#)
        try home.write("broken.json", "not json")
        let error = try #require(throws: TypeDeclarationError.self) {
            try TypeDeclaration.install([], fileName: "notes", environment: home.environment)
        }
        #expect(error.file == home.types + "/z-memo.json")
        #expect(error.message == "unknown parent type 'com.example.note', once notes.json is installed")
        var newer = note
        newer.description = "A note, version 2"
        try TypeDeclaration.install([newer], fileName: "notes", environment: home.environment)
        #expect(TypeRegistry.loading(environment: home.environment).registry.declaration(for: "com.example.note") == newer)
    }

    @Test(arguments: ["", ".json", "a/b", ".hidden"])
    func aFileNameThatCannotBeReadIsRefused(name: String) throws {
        let home = try ConfigHome()
        let error = try #require(throws: TypeDeclarationError.self) {
            try TypeDeclaration.install([note], fileName: name, environment: home.environment)
        }
        #expect(error.field == "(file name)")
        #expect(!FileManager.default.fileExists(atPath: home.config))
    }

    @Test(.enabled(if: geteuid() == 0, "only root can give a directory to another user"))
    func aDirectoryOfAnotherUserIsRefused() throws {
        let home = try ConfigHome()
        try FileManager.default.createDirectory(atPath: home.types, withIntermediateDirectories: true)
        #expect(chown(home.types, 65534, 65534) == 0)
        let error = try #require(throws: PasteboardError.self) {
            try TypeDeclaration.install([note], fileName: "notes", environment: home.environment)
        }
        #expect(error.description == "\(home.types) belongs to uid 65534, not to this user (uid 0): nothing was written")
    }
}

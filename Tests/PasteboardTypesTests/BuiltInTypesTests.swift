import Foundation
@testable import PasteboardTypes
import XCTest

final class BuiltInTypesTests: XCTestCase {
    /// `Sources/PasteboardTypes/BuiltInTypes.swift` is generated from `Config/types.json`: this
    /// test renders it anew and, when the two differ, writes the rendering and says how to
    /// install it.
    func testCompiledInDeclarationsAreConfigTypesJSON() throws {
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // Tests/PasteboardTypesTests
            .deletingLastPathComponent()  // Tests
            .deletingLastPathComponent()  // package root
        let parsed = TypeRegistry.parseDeclarationFile(
            try Data(contentsOf: root.appendingPathComponent("Config/types.json")), source: "Config/types.json")
        XCTAssertEqual(parsed.errors, [])
        XCTAssertEqual(BuiltInTypes.declarations, parsed.declarations)

        let sourcePath = root.appendingPathComponent("Sources/PasteboardTypes/BuiltInTypes.swift")
        let rendered = Self.swiftSource(parsed.declarations)
        if try String(contentsOf: sourcePath, encoding: .utf8) != rendered {
            let fresh = FileManager.default.temporaryDirectory.appendingPathComponent("BuiltInTypes.swift")
            try rendered.write(to: fresh, atomically: true, encoding: .utf8)
            XCTFail("Sources/PasteboardTypes/BuiltInTypes.swift is not Config/types.json as Swift. Regenerated: "
                + "cp \(fresh.path) \(sourcePath.path)")
        }
    }

    func testBuiltInsAreValidAndMakeTheBuiltInRegistry() {
        let result = TypeRegistry.empty.adding(BuiltInTypes.declarations, source: "built-in")
        XCTAssertEqual(result.errors, [])
        XCTAssertEqual(result.registry.declarations, TypeRegistry.builtIn.declarations)
        for declaration in BuiltInTypes.declarations {
            XCTAssertEqual(TypeRegistry.builtIn.sources[declaration.identifier], "built-in")
        }
    }

    func testTheBuiltInMagicTableSniffsAsTheBuiltInRegistryDoes() {
        let table = MagicTable(BuiltInTypes.declarations)
        XCTAssertEqual(MagicTable.builtIn.entries.map(\.type), table.entries.map(\.type))
        XCTAssertEqual(MagicTable.builtIn.entries.map(\.type), TypeRegistry.builtIn.magicTable.entries.map(\.type))
        XCTAssertEqual(
            MagicTable.builtIn.entries.map(\.pattern.bytes.count), MagicTable.builtIn.entries.map(\.pattern.bytes.count).sorted(by: >),
            "longest patterns are tried first")
        let gif = Array("GIF89a".utf8)
        XCTAssertEqual(gif.withUnsafeBufferPointer { MagicTable.builtIn.type(matching: $0) }, .init("public.gif"))
        XCTAssertNil(Array("GIF90a".utf8).withUnsafeBufferPointer { MagicTable.builtIn.type(matching: $0) })
    }

    /// The Swift source of `BuiltInTypes.swift` for `declarations`.
    private static func swiftSource(_ declarations: [TypeDeclaration]) -> String {
        func quoted(_ text: String) -> String {
            "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
        func list(_ items: [String]) -> String { "[" + items.map(quoted).joined(separator: ", ") + "]" }
        let lines = declarations.map { declaration in
            var parts = ["identifier: " + quoted(declaration.identifier.rawValue), "conformsTo: " + list(declaration.conformsTo.map(\.rawValue))]
            if !declaration.mimeTypes.isEmpty { parts.append("mimeTypes: " + list(declaration.mimeTypes)) }
            if !declaration.filenameExtensions.isEmpty { parts.append("filenameExtensions: " + list(declaration.filenameExtensions)) }
            if !declaration.magic.isEmpty {
                let patterns = declaration.magic.map { pattern in
                    "MagicPattern(offset: \(pattern.offset), bytes: [" + pattern.bytes.map { String(format: "0x%02x", $0) }.joined(separator: ", ") + "])"
                }
                parts.append("magic: [" + patterns.joined(separator: ", ") + "]")
            }
            if let description = declaration.description { parts.append("description: " + quoted(description)) }
            return "        TypeDeclaration(" + parts.joined(separator: ", ") + "),"
        }
        return """
            /// The built-in type declarations, so binaries work without any installed file.
            enum BuiltInTypes {
                // Generated from Config/types.json: BuiltInTypesTests fails when they differ, and writes the
                // regenerated file (its message says where). Swift values rather than the JSON text, so that
                // a short-lived command does not parse JSON before its first request.
                static let declarations: [TypeDeclaration] = [

            """ + lines.joined(separator: "\n") + """

                ]
            }

            """
    }

    func testUserTypesDirectory() {
        XCTAssertEqual(
            TypeRegistry.userTypesDirectory(environment: ["XDG_CONFIG_HOME": "/x/config", "HOME": "/home/u"]),
            "/x/config/pasteboard/types.d")
        XCTAssertEqual(TypeRegistry.userTypesDirectory(environment: ["HOME": "/home/u"]), "/home/u/.config/pasteboard/types.d")
        XCTAssertEqual(
            TypeRegistry.userTypesDirectory(environment: ["XDG_CONFIG_HOME": "", "HOME": "/home/u/"]),
            "/home/u/.config/pasteboard/types.d", "empty XDG_CONFIG_HOME is ignored")
        XCTAssertEqual(
            TypeRegistry.userTypesDirectory(environment: ["XDG_CONFIG_HOME": "relative", "HOME": "/home/u"]),
            "/home/u/.config/pasteboard/types.d", "relative XDG_CONFIG_HOME is ignored")
        XCTAssertNil(TypeRegistry.userTypesDirectory(environment: [:]))
    }
}

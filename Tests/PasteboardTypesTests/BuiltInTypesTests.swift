import Foundation
@testable import PasteboardTypes
import XCTest

final class BuiltInTypesTests: XCTestCase {
    func testEmbeddedCopyEqualsConfigTypesJSON() throws {
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // Tests/PasteboardTypesTests
            .deletingLastPathComponent()  // Tests
            .deletingLastPathComponent()  // package root
        let file = try Data(contentsOf: root.appendingPathComponent("Config/types.json"))
        let regenerate = [
            ##"{ sed -n '1,/^    static let json = #"""$/p' Sources/PasteboardTypes/BuiltInTypes.swift;"##,
            ##"cat Config/types.json; echo; sed -n '/^"""#$/,$p' Sources/PasteboardTypes/BuiltInTypes.swift; }"##,
            "> BuiltInTypes.swift.new && mv BuiltInTypes.swift.new Sources/PasteboardTypes/BuiltInTypes.swift",
        ].joined(separator: " ")
        XCTAssertTrue(
            Data(BuiltInTypes.json.utf8) == file,
            "Sources/PasteboardTypes/BuiltInTypes.swift does not match Config/types.json byte for byte. "
                + "Regenerate it by running this from the package root:\n" + regenerate)
    }

    func testBuiltInsParseWithoutErrors() {
        let parsed = TypeRegistry.parseDeclarationFile(Data(BuiltInTypes.json.utf8), source: "built-in")
        XCTAssertEqual(parsed.errors, [])
        let result = TypeRegistry.empty.adding(parsed.declarations, source: "built-in")
        XCTAssertEqual(result.errors, [])
        XCTAssertEqual(result.registry.declarations, TypeRegistry.builtIn.declarations)
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

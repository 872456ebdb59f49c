import Foundation
import PasteboardTypes
import XCTest

final class CodingTests: XCTestCase {
    func testTypeIdentifierIsAPlainJSONString() throws {
        let encoded = try JSONEncoder().encode([TypeIdentifier.png])
        XCTAssertEqual(String(decoding: encoded, as: UTF8.self), #"["public.png"]"#)
        XCTAssertEqual(try JSONDecoder().decode([TypeIdentifier].self, from: encoded), [.png])
        XCTAssertEqual(TypeIdentifier.png.description, "public.png")
        XCTAssertTrue(TypeIdentifier.data < TypeIdentifier.png)
    }

    func testMagicPatternUsesHex() throws {
        let pattern = MagicPattern(offset: 0, bytes: [0x89, 0x50, 0x4E, 0x47])
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        XCTAssertEqual(String(decoding: try encoder.encode(pattern), as: UTF8.self), #"{"bytes":"89504e47","offset":0}"#)
        XCTAssertEqual(try JSONDecoder().decode(MagicPattern.self, from: Data(#"{"offset":0,"bytes":"89504E47"}"#.utf8)), pattern)
        XCTAssertThrowsError(try JSONDecoder().decode(MagicPattern.self, from: Data(#"{"offset":0,"bytes":"8"}"#.utf8)))
        XCTAssertEqual(MagicPattern(hex: "ffd8ff"), MagicPattern(offset: 0, bytes: [0xFF, 0xD8, 0xFF]))
        XCTAssertNil(MagicPattern(hex: "xyz"))
    }

    func testDeclarationRoundTripsAndDefaultsOptionalFields() throws {
        let declaration = TypeDeclaration(
            identifier: "com.example.x", conformsTo: [.data, .content], mimeTypes: ["application/x-x"],
            filenameExtensions: ["x"], magic: [MagicPattern(offset: 2, bytes: [1, 2])], description: "X")
        let data = try JSONEncoder().encode(declaration)
        XCTAssertEqual(try JSONDecoder().decode(TypeDeclaration.self, from: data), declaration)

        let minimal = try JSONDecoder().decode(
            TypeDeclaration.self, from: Data(#"{"identifier":"com.example.y","conformsTo":["public.data"]}"#.utf8))
        XCTAssertEqual(minimal, TypeDeclaration(identifier: "com.example.y", conformsTo: [.data]))
        XCTAssertThrowsError(try JSONDecoder().decode(
            TypeDeclaration.self, from: Data(#"{"identifier":"a.b","conformsTo":[],"extra":1}"#.utf8)))
    }
}

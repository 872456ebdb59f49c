import Foundation
import PasteboardJSON
import PasteboardProtocol
import PasteboardTypes
import XCTest

/// A declaration in a protocol message is written by the one JSON writer and read by the
/// declaration parser; Codable (for apps) writes the same shape. The two must agree, or a
/// declaration an app sends would not read back as the daemon lists it.
final class TypeDeclarationJSONTests: XCTestCase {
    private let declarations = [
        TypeDeclaration(identifier: "com.example.y", conformsTo: [.data]),
        TypeDeclaration(
            identifier: "com.example.x", conformsTo: [.data, .content], mimeTypes: ["application/x-x", "text/x-x"],
            filenameExtensions: ["x", "xx"], magic: [MagicPattern(offset: 2, bytes: [1, 2]), MagicPattern(bytes: [0xFF])],
            description: "An \"X\" file — über"),
        TypeDeclaration(identifier: "com.example.z", conformsTo: [], description: ""),
    ]

    private func written(_ declaration: TypeDeclaration) -> [UInt8] {
        var writer = JSONObjectWriter()
        writer.member("type", declaration)
        writer.close()
        return writer.output
    }

    func testTheWriterWritesTheShapeCodableWrites() throws {
        XCTAssertEqual(
            String(decoding: written(declarations[1]), as: UTF8.self),
            #"{"type":{"identifier":"com.example.x","conformsTo":["public.data","public.content"],"#
                + #""mimeTypes":["application/x-x","text/x-x"],"filenameExtensions":["x","xx"],"#
                + #""magic":[{"offset":2,"bytes":"0102"},{"offset":0,"bytes":"ff"}],"description":"An \"X\" file — über"}}"#)
        XCTAssertEqual(String(decoding: written(declarations[0]), as: UTF8.self),
                       #"{"type":{"identifier":"com.example.y","conformsTo":["public.data"]}}"#, "empty lists and no description are left out")
    }

    func testCodableAndTheParserReadWhatTheOtherWrote() throws {
        struct Wrapper: Codable { var type: TypeDeclaration }
        for declaration in declarations {
            XCTAssertEqual(try JSONDecoder().decode(Wrapper.self, from: Data(written(declaration))).type, declaration)
            let encoded = try JSONEncoder().encode(declaration)
            let tape = try encoded.withUnsafeBytes { try JSONTape($0) }
            XCTAssertEqual(try TypeDeclaration(json: tape, at: 0), declaration)
        }
    }
}

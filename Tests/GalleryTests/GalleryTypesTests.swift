import Foundation
@testable import GalleryModel
import PasteboardTypes
import XCTest

final class GalleryTypesTests: XCTestCase {
    func testEmbeddedDeclarationEqualsConfigFile() throws {
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let file = try Data(contentsOf: root.appendingPathComponent("Config/gallery-types.json"))
        XCTAssertTrue(
            Data(GalleryTypes.json.utf8) == file,
            "Sources/Gallery/GalleryTypes.swift does not embed Config/gallery-types.json byte for byte")
    }

    func testTheGalleryTypeIsDeclaredAsJSON() throws {
        let declarations = GalleryTypes.declarations
        XCTAssertEqual(declarations.map(\.identifier), [GalleryTypes.image])
        let registry = TypeRegistry.builtIn.adding(declarations, source: "gallery")
        XCTAssertEqual(registry.errors, [])
        XCTAssertTrue(registry.registry.conforms(GalleryTypes.image, to: .json))
        XCTAssertFalse(registry.registry.conforms(GalleryTypes.image, to: .png))
    }

    func testReferenceRoundTrips() {
        let reference = GalleryImageReference(title: "Sunset", url: "file:///tmp/a.png", aspectRatio: 1.5)
        XCTAssertEqual(GalleryImageReference.decode(reference.encoded()), reference)
        XCTAssertNil(GalleryImageReference.decode(Array("not json".utf8)))
    }
}

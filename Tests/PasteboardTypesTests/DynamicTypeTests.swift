import PasteboardTypes
import XCTest

final class DynamicTypeTests: XCTestCase {
    let registry = TypeRegistry.builtIn

    func testNamingAndRoundTrip() {
        let type = TypeIdentifier.dynamic(mimeType: "Text/X-Foo")
        XCTAssertEqual(type.rawValue, "dyn.mime.text/x-foo")
        XCTAssertEqual(type.dynamicMIMEType, "text/x-foo")
        XCTAssertEqual(TypeIdentifier.dynamic(mimeType: type.dynamicMIMEType!), type)
        XCTAssertEqual(registry.type(forMIMEType: type.dynamicMIMEType!), type)
        XCTAssertNil(TypeIdentifier.png.dynamicMIMEType)
        XCTAssertNil(TypeIdentifier("dyn.mime.").dynamicMIMEType)
    }

    func testTextDynamicTypeConformsToTextAndData() {
        let type = registry.type(forMIMEType: "text/x-foo")
        XCTAssertTrue(registry.conforms(type, to: .text))
        XCTAssertTrue(registry.conforms(type, to: .data))
        XCTAssertTrue(registry.conforms(type, to: .content))
        XCTAssertTrue(registry.conforms(type, to: .item))
        XCTAssertFalse(registry.conforms(type, to: .image))
        XCTAssertFalse(registry.conforms(type, to: .plainText))
        XCTAssertEqual(registry.supertypes(of: type), [.text, .data, .content, .item])
    }

    func testOtherDynamicTypesConformToDataOnly() {
        let type = registry.type(forMIMEType: "application/x-foo")
        XCTAssertTrue(registry.conforms(type, to: type))
        XCTAssertTrue(registry.conforms(type, to: .data))
        XCTAssertTrue(registry.conforms(type, to: .item))
        XCTAssertFalse(registry.conforms(type, to: .text))
        XCTAssertFalse(registry.conforms(type, to: .content))
        XCTAssertFalse(registry.conforms(type, to: .image))
        XCTAssertFalse(registry.conforms(type, to: "dyn.mime.application/x-bar"))
        XCTAssertEqual(registry.supertypes(of: type), [.data, .item])
    }

    func testSynthesisedDeclaration() throws {
        let declaration = try XCTUnwrap(registry.declaration(for: "dyn.mime.text/x-foo"))
        XCTAssertEqual(declaration.identifier, "dyn.mime.text/x-foo")
        XCTAssertEqual(declaration.conformsTo, [.text])
        XCTAssertEqual(declaration.mimeTypes, ["text/x-foo"])
        XCTAssertEqual(registry.declaration(for: "dyn.mime.application/x-foo")?.conformsTo, [.data])
    }

    func testNonMIMEDynamicIdentifiersConformOnlyToThemselves() {
        let type: TypeIdentifier = "dyn.other.thing"
        XCTAssertFalse(registry.conforms(type, to: .data))
        XCTAssertNil(registry.declaration(for: type))
    }
}

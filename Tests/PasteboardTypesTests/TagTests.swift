import PasteboardTypes
import XCTest

final class TagTests: XCTestCase {
    let registry = TypeRegistry.builtIn

    func testMIMELookup() {
        XCTAssertEqual(registry.type(forMIMEType: "image/png"), .png)
        XCTAssertEqual(registry.type(forMIMEType: "IMAGE/PNG"), .png)
        XCTAssertEqual(registry.type(forMIMEType: "text/html; charset=utf-8"), .html)
        XCTAssertEqual(registry.type(forMIMEType: "text/plain"), .plainText)
        XCTAssertEqual(registry.type(forMIMEType: "text/xml"), .xml, "second MIME type of a declaration")
        XCTAssertEqual(registry.type(forMIMEType: "image/svg+xml"), .svgImage)
        XCTAssertEqual(registry.type(forMIMEType: "text/uri-list"), .url)
    }

    func testCharsetParameterPicksTheUTFTypes() {
        XCTAssertEqual(registry.type(forMIMEType: "text/plain;charset=utf-8"), .utf8PlainText)
        XCTAssertEqual(registry.type(forMIMEType: "text/plain; charset=UTF-8"), .utf8PlainText)
        XCTAssertEqual(registry.type(forMIMEType: "Text/Plain;Charset=\"utf-8\""), .utf8PlainText)
        XCTAssertEqual(registry.type(forMIMEType: "text/plain;charset=utf-16"), .utf16PlainText)
        XCTAssertEqual(registry.type(forMIMEType: "text/plain;charset=iso-8859-1"), .plainText)
    }

    func testUnknownMIMETypeGivesDynamicType() {
        XCTAssertEqual(registry.type(forMIMEType: "application/x-foo"), "dyn.mime.application/x-foo")
        XCTAssertEqual(registry.type(forMIMEType: "Text/X-Foo; charset=utf-8"), "dyn.mime.text/x-foo")
    }

    func testExtensionLookup() {
        XCTAssertEqual(registry.type(forFilenameExtension: "png"), .png)
        XCTAssertEqual(registry.type(forFilenameExtension: ".png"), .png)
        XCTAssertEqual(registry.type(forFilenameExtension: "PNG"), .png)
        XCTAssertEqual(registry.type(forFilenameExtension: ".JPEG"), .jpeg)
        XCTAssertEqual(registry.type(forFilenameExtension: "jpg"), .jpeg)
        XCTAssertEqual(registry.type(forFilenameExtension: "htm"), .html)
        XCTAssertEqual(registry.type(forFilenameExtension: "txt"), .plainText)
        XCTAssertNil(registry.type(forFilenameExtension: "nope"))
        XCTAssertNil(registry.type(forFilenameExtension: ""))
        XCTAssertNil(registry.type(forFilenameExtension: "."))
    }

    func testPreferredMIMEType() {
        XCTAssertEqual(registry.preferredMIMEType(for: .png), "image/png")
        XCTAssertEqual(registry.preferredMIMEType(for: .xml), "application/xml")
        XCTAssertEqual(registry.preferredMIMEType(for: .utf8PlainText), "text/plain;charset=utf-8")
        XCTAssertEqual(registry.preferredMIMEType(for: .dynamic(mimeType: "application/x-foo")), "application/x-foo")
        XCTAssertNil(registry.preferredMIMEType(for: .image), "abstract types have no MIME type")
        XCTAssertNil(registry.preferredMIMEType(for: "com.example.unknown"))
        XCTAssertEqual(registry.preferredFilenameExtension(for: .jpeg), "jpg")
    }

    func testResolve() {
        XCTAssertEqual(registry.resolve("public.png"), .png)
        XCTAssertEqual(registry.resolve("image/png"), .png)
        XCTAssertEqual(registry.resolve(" text/plain;charset=utf-8 "), .utf8PlainText)
        XCTAssertEqual(registry.resolve("application/x-foo"), "dyn.mime.application/x-foo")
        XCTAssertEqual(registry.resolve("dyn.mime.image/png"), .png, "a dynamic identifier for a declared MIME type")
        XCTAssertEqual(registry.resolve("dyn.mime.application/x-foo"), "dyn.mime.application/x-foo")
        XCTAssertNil(registry.resolve("com.example.unknown"))
        XCTAssertNil(registry.resolve("png"))
        XCTAssertNil(registry.resolve(""))
        XCTAssertNil(registry.resolve("/"))
        XCTAssertNil(registry.resolve("text/"))
    }

    /// KDE's password-manager hint is offered as a bare name, not a `type/subtype`: declared,
    /// it resolves in any case; an undeclared bare name stays unknown.
    func testABareDesktopNameResolvesOnlyWhenDeclared() {
        XCTAssertEqual(registry.resolve("x-kde-passwordManagerHint"), "org.kde.password-manager-hint")
        XCTAssertEqual(registry.resolve("X-KDE-PASSWORDMANAGERHINT"), "org.kde.password-manager-hint")
        XCTAssertEqual(registry.preferredMIMEType(for: "org.kde.password-manager-hint"), "x-kde-passwordManagerHint")
        XCTAssertEqual(registry.resolve("org.nspasteboard.ConcealedType"), "org.nspasteboard.ConcealedType")
        XCTAssertNil(registry.resolve("x-kde-somethingElse"))
        XCTAssertFalse(registry.conforms("org.kde.password-manager-hint", to: .plainText),
                       "the hint's value is never pasted as text")
    }
}

import PasteboardDesktop
import PasteboardDesktopTypes
import PasteboardTypes
import XCTest

/// What the bridge offers the desktop for a pasteboard item, and where each target's bytes come from.
final class DesktopExportPlanTests: XCTestCase {
    private let mapping = DesktopTypeMapping(registry: .builtIn)

    private func plan(_ types: [TypeIdentifier], sensitive: Bool = false) -> DesktopExportPlan {
        DesktopExportPlan(types: types, isSensitive: sensitive, changeCount: 7, mapping: mapping)
    }

    func testTextOffersItsMIMETypesAndTheX11NamesWithLatin1ForTheLegacyOnes() {
        let made = plan([.utf8PlainText])
        XCTAssertEqual(made.targetNames, ["text/plain;charset=utf-8", "text/plain", "UTF8_STRING", "STRING", "TEXT"])
        XCTAssertEqual(made.target(named: "UTF8_STRING")?.source, .representation(.utf8PlainText, .none))
        XCTAssertEqual(made.target(named: "STRING")?.source, .representation(.utf8PlainText, .utf8ToLatin1))
        XCTAssertEqual(made.target(named: "TEXT")?.source, .representation(.utf8PlainText, .utf8ToLatin1))
        XCTAssertEqual(made.changeCount, 7)
    }

    func testTextWithoutUTF8PlainTextIsOfferedUnderThePlainTextNamesToo() {
        let html = plan([.html])
        XCTAssertEqual(html.targetNames, ["text/html", "text/plain;charset=utf-8", "UTF8_STRING", "STRING", "TEXT"])
        XCTAssertEqual(html.target(named: "UTF8_STRING")?.source, .representation(.html, .none))
        XCTAssertEqual(html.target(named: "STRING")?.source, .representation(.html, .utf8ToLatin1))
        // A .txt file of unknown charset: xclip -o (UTF8_STRING) gets it.
        XCTAssertTrue(plan([.plainText]).targetNames.contains("UTF8_STRING"))
        // An image alone has no text to offer.
        XCTAssertFalse(plan([.png]).targetNames.contains("UTF8_STRING"))
    }

    func testAnImageWithATitleOffersBothInTheItemsOrder() {
        let made = plan([.png, .utf8PlainText])
        XCTAssertEqual(made.targetNames.first, "image/png")
        XCTAssertEqual(made.target(named: "image/png")?.source, .representation(.png, .none))
        XCTAssertTrue(made.targetNames.contains("UTF8_STRING"))
        XCTAssertNil(made.target(named: DesktopExportPlan.passwordManagerHintTarget))
    }

    func testUntypedBytesAreOfferedAsOctetStreamAsOnWayland() {
        // `pb copy somefile.bin` of binary of no known kind: without a target the exporter would
        // let go of the selection, so X11 and Wayland offer the same generic MIME type.
        let made = plan([.data])
        XCTAssertEqual(made.targetNames, ["application/octet-stream"])
        XCTAssertEqual(made.target(named: "application/octet-stream")?.source, .representation(.data, .none))
        let offer = WaylandExportOffer(types: [.data], sensitive: false, mapping: mapping)
        XCTAssertEqual(offer.mimeTypes.filter { $0 != WaylandBridgeMarker.mimeType }, made.targetNames)
    }

    func testANameOfferedByABetterRepresentationIsNotOfferedAgain() {
        let made = plan([.utf8PlainText, .utf8PlainText])
        XCTAssertEqual(made.targetNames.count, Set(made.targetNames).count)
    }

    func testASecretAlsoOffersThePasswordManagerHint() {
        let made = plan([.utf8PlainText], sensitive: true)
        XCTAssertEqual(made.targetNames.last, "x-kde-passwordManagerHint")
        XCTAssertEqual(made.target(named: "x-kde-passwordManagerHint")?.source, .fixed(Array("secret".utf8)))
    }

    func testFileURLsOfferAURIListAndGNOMEsList() {
        let made = plan([.fileURL])
        XCTAssertEqual(made.target(named: "text/uri-list")?.source, .representation(.fileURL, .none))
        XCTAssertEqual(made.target(named: "x-special/gnome-copied-files")?.source, .representation(.fileURL, .uriListToGnomeCopiedFiles))
    }

    func testReservedNamesAreNeverOfferedAsData() {
        let made = DesktopExportPlan(types: [.utf8PlainText], isSensitive: false, changeCount: 1, mapping: mapping, reservedNames: ["TEXT"])
        XCTAssertFalse(made.targetNames.contains("TEXT"))
    }

    func testATypeWithoutADesktopNameIsStillOfferedAsBytes() {
        XCTAssertEqual(plan([TypeIdentifier(rawValue: "com.example.private-thing")]).targetNames, ["application/octet-stream"])
    }
}

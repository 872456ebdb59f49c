import PasteboardDesktop
import PasteboardDesktopTypes
import PasteboardTypes
import PasteboardWayland
import XCTest

/// What the Wayland exporter offers for an item, and what each MIME type is served from.
final class WaylandExportOfferTests: XCTestCase {
    private let mapping = DesktopTypeMapping(registry: .builtIn)

    func testTextIsOfferedUnderEveryNameWlCopyUsesThenTheMarker() {
        let offer = WaylandExportOffer(types: [.utf8PlainText], sensitive: false, mapping: mapping)
        XCTAssertEqual(offer.mimeTypes, ["text/plain;charset=utf-8", "text/plain", "UTF8_STRING", "STRING", "TEXT", WaylandBridgeMarker.mimeType])
        for mimeType in offer.mimeTypes.dropLast() {
            XCTAssertEqual(offer.content(for: mimeType), .representation(.utf8PlainText), mimeType)
        }
        XCTAssertEqual(offer.content(for: WaylandBridgeMarker.mimeType), .marker)
        XCTAssertNil(offer.content(for: "image/png"), "not offered: refused")
    }

    func testAnImageWithATitleKeepsTheItemsOrder() {
        let offer = WaylandExportOffer(types: [TypeIdentifier("public.png"), .utf8PlainText], sensitive: false, mapping: mapping)
        XCTAssertEqual(offer.mimeTypes.first, "image/png")
        XCTAssertEqual(offer.content(for: "image/png"), .representation(TypeIdentifier("public.png")))
        XCTAssertEqual(offer.content(for: "text/plain"), .representation(.utf8PlainText))
        XCTAssertEqual(offer.mimeTypes.last, WaylandBridgeMarker.mimeType)
    }

    func testAMIMETypeTwoRepresentationsShareIsServedByTheFirst() {
        let offer = WaylandExportOffer(types: [.utf8PlainText, .utf8PlainText], sensitive: false, mapping: mapping)
        XCTAssertEqual(offer.mimeTypes.filter { $0 == "text/plain" }.count, 1)
    }

    func testASensitiveItemCarriesTheSecretHint() {
        let offer = WaylandExportOffer(types: [.utf8PlainText], sensitive: true, mapping: mapping)
        XCTAssertEqual(Array(offer.mimeTypes.suffix(2)), [DesktopTypeMapping.passwordManagerHintTarget, WaylandBridgeMarker.mimeType])
        XCTAssertEqual(offer.content(for: DesktopTypeMapping.passwordManagerHintTarget), .secretHint)
        XCTAssertEqual(WaylandExportOffer.secretHintBody, Array("secret".utf8))
        XCTAssertFalse(WaylandExportOffer(types: [.utf8PlainText], sensitive: false, mapping: mapping).mimeTypes.contains(DesktopTypeMapping.passwordManagerHintTarget))
    }

    func testATypeWithoutAMIMETypeIsOfferedAsBytes() {
        let offer = WaylandExportOffer(types: [.data], sensitive: false, mapping: mapping)
        XCTAssertEqual(offer.mimeTypes, ["application/octet-stream", WaylandBridgeMarker.mimeType])
        XCTAssertEqual(offer.content(for: "application/octet-stream"), .representation(.data))
    }

    func testTheOfferStaysWithinTheSourcesLimitWithItsMarker() {
        let types = (0..<400).map { TypeIdentifier(rawValue: "dyn.mime.application/x-many-\($0)") }
        let offer = WaylandExportOffer(types: types, sensitive: true, mapping: mapping)
        XCTAssertLessThanOrEqual(offer.mimeTypes.count, SourceLimits.maxMIMETypes)
        XCTAssertEqual(offer.mimeTypes.last, WaylandBridgeMarker.mimeType)
        XCTAssertTrue(offer.mimeTypes.contains(DesktopTypeMapping.passwordManagerHintTarget))
    }

    func testTheMarkerIsNeverARepresentationsMIMEType() {
        let marker = TypeIdentifier(rawValue: "dyn.mime.\(WaylandBridgeMarker.mimeType)")
        let offer = WaylandExportOffer(types: [marker, .utf8PlainText], sensitive: false, mapping: mapping)
        XCTAssertEqual(offer.content(for: WaylandBridgeMarker.mimeType), .marker)
    }

    func testOwnOffersAreKnownByTheMarker() {
        XCTAssertTrue(WaylandBridgeMarker.isOwnOffer(["text/plain", WaylandBridgeMarker.mimeType]))
        XCTAssertFalse(WaylandBridgeMarker.isOwnOffer(["text/plain;charset=utf-8", "text/plain", "TEXT", "STRING", "UTF8_STRING"]))
        XCTAssertFalse(WaylandBridgeMarker.isOwnOffer([]))
    }
}

import PasteboardDesktopTypes
import PasteboardTypes
import XCTest

/// What desktop offers become, as real owners offer them, and what the bridge offers back.
final class DesktopTypeMappingTests: XCTestCase {
    private let mapping = DesktopTypeMapping(registry: .builtIn)

    private func types(_ offered: [String]) -> [String] {
        mapping.representations(forOffered: offered).representations.map { "\($0.type.rawValue)<-\($0.target)" }
    }

    func testXclipsTextIsOneUTF8RepresentationFetchedByUTF8String() {
        // What `xclip -i` offers for text, in its order.
        XCTAssertEqual(types(["TARGETS", "UTF8_STRING"]), ["public.utf8-plain-text<-UTF8_STRING"])
        // A GTK application's text: plumbing dropped, the names collapse, the best one fetched.
        let gtk = ["TIMESTAMP", "TARGETS", "MULTIPLE", "SAVE_TARGETS", "UTF8_STRING", "COMPOUND_TEXT", "TEXT", "STRING",
                   "text/plain;charset=utf-8", "text/plain"]
        XCTAssertEqual(types(gtk), ["public.utf8-plain-text<-UTF8_STRING"])
        // wl-copy's text.
        XCTAssertEqual(types(["text/plain", "text/plain;charset=utf-8", "TEXT", "STRING", "UTF8_STRING"]),
                       ["public.utf8-plain-text<-UTF8_STRING"])
    }

    func testLatin1OnlyTextIsConvertedToUTF8() {
        let offer = mapping.representations(forOffered: ["TARGETS", "STRING"])
        XCTAssertEqual(offer.representations, [DesktopRepresentation(type: .utf8PlainText, target: "STRING", conversion: .latin1ToUTF8)])
        XCTAssertEqual(DesktopRepresentation.Conversion.latin1ToUTF8.apply(to: [0x63, 0x61, 0x66, 0xE9]), Array("café".utf8))
    }

    func testABrowsersOfferPutsThePlainTextFirstThenTheHTMLThenItsPrivateFormats() {
        let firefox = ["text/html", "text/_moz_htmlcontext", "text/_moz_htmlinfo", "UTF8_STRING", "COMPOUND_TEXT", "TEXT", "STRING",
                       "text/plain;charset=utf-8", "text/plain", "text/x-moz-url-priv", "TARGETS", "MULTIPLE", "TIMESTAMP", "SAVE_TARGETS"]
        XCTAssertEqual(types(firefox), [
            "public.utf8-plain-text<-UTF8_STRING",
            "public.html<-text/html",
            "dyn.mime.text/_moz_htmlcontext<-text/_moz_htmlcontext",
            "dyn.mime.text/_moz_htmlinfo<-text/_moz_htmlinfo",
            "dyn.mime.text/x-moz-url-priv<-text/x-moz-url-priv",
        ])
    }

    func testToolkitPrivateFormatsComeAfterEveryPublicTypeInTheOwnersOrder() {
        // GTK's text view, a Qt application, LibreOffice: their own formats are listed first.
        let gtk = ["GTKTEXTBUFFERCONTENTS-0001", "application/x-gtk-text-buffer-rich-text", "UTF8_STRING", "TEXT", "STRING", "TARGETS"]
        XCTAssertEqual(mapping.representations(forOffered: gtk).representations.first?.type, .utf8PlainText)
        let qt = ["application/x-qt-image", "image/png", "text/plain;charset=utf-8"]
        XCTAssertEqual(mapping.representations(forOffered: qt).representations.map(\.type.rawValue),
                       ["public.png", "public.utf8-plain-text", "dyn.mime.application/x-qt-image"])
        let office = ["application/x-openoffice-embed-source-xml;windows_formatname=\"Star Embed Source (XML)\"", "text/rtf", "text/html", "UTF8_STRING"]
        XCTAssertEqual(mapping.representations(forOffered: office).representations.first?.type, .utf8PlainText)
        // An image copied in a browser stays an image first: only text is moved behind plain text.
        let image = ["text/html", "text/_moz_htmlinfo", "image/png", "text/x-moz-url"]
        XCTAssertEqual(mapping.representations(forOffered: image).representations.first?.type, .png)
    }

    func testAnImageAndUnknownX11NamesAreIgnoredNotGuessed() {
        let offer = mapping.representations(forOffered: ["TARGETS", "image/png", "image/jpeg", "_QT_SELECTION", "PIXMAP"])
        XCTAssertEqual(offer.representations.map(\.type), [.png, .jpeg])
        XCTAssertEqual(offer.ignored, ["_QT_SELECTION"], "plumbing is dropped silently; unknown names are reported")
    }

    func testAFileManagersCopyIsFileURLs() {
        let nautilus = ["TARGETS", "x-special/gnome-copied-files", "text/uri-list", "UTF8_STRING"]
        let offer = mapping.representations(forOffered: nautilus)
        XCTAssertEqual(offer.representations.map(\.type), [.fileURL, .utf8PlainText], "the URI list is the same files: one file-URL representation")
        XCTAssertEqual(offer.representations.first?.conversion, .gnomeCopiedFilesToURIList)
        let converted = DesktopRepresentation.Conversion.gnomeCopiedFilesToURIList.apply(to: Array("copy\nfile:///home/u/a.png\nfile:///home/u/b%20c.txt".utf8))
        XCTAssertEqual(String(decoding: converted, as: UTF8.self), "file:///home/u/a.png\r\nfile:///home/u/b%20c.txt\r\n")
        // A URI list alone (a browser's link) is URLs, not necessarily files.
        XCTAssertEqual(types(["text/uri-list"]), ["public.url<-text/uri-list"])
    }

    func testSecretMarkersBecomeTheirMarkerTypes() {
        let keepass = mapping.representations(forOffered: ["TARGETS", "UTF8_STRING", "x-kde-passwordManagerHint"])
        XCTAssertEqual(keepass.representations.map(\.type.rawValue), ["public.utf8-plain-text", "org.kde.password-manager-hint"])
        XCTAssertFalse(keepass.isConcealed, "the KDE hint marks a secret only by its value, which must be fetched")
        let concealed = mapping.representations(forOffered: ["UTF8_STRING", "org.nspasteboard.ConcealedType"])
        XCTAssertTrue(concealed.isConcealed)
    }

    func testTheBridgeOffersMIMETypesAndTheX11NamesOfText() {
        XCTAssertEqual(mapping.targets(for: .utf8PlainText), ["text/plain;charset=utf-8", "text/plain", "UTF8_STRING", "STRING", "TEXT"])
        XCTAssertEqual(mapping.targets(for: .png), ["image/png"])
        XCTAssertEqual(mapping.targets(for: .fileURL), ["text/uri-list", "x-special/gnome-copied-files"])
        XCTAssertEqual(mapping.targets(for: .dynamic(mimeType: "application/x-thing")), ["application/x-thing"])
        XCTAssertEqual(mapping.targets(for: "org.kde.password-manager-hint"), ["x-kde-passwordManagerHint"])
        // A type with no MIME type is still bytes: offered as the generic MIME type, never as nothing.
        XCTAssertEqual(mapping.targets(for: .data), [DesktopTypeMapping.untypedBytesTarget])
        XCTAssertEqual(DesktopTypeMapping.untypedBytesTarget, "application/octet-stream")
    }

    func testWhatTheBridgeOffersComesBackAsTheSameTypes() {
        // Our own offer read back (by another Pasteboard, or our own echo check) maps to what was offered.
        for type in [TypeIdentifier.utf8PlainText, .png, .html, .pdf, .fileURL] {
            XCTAssertEqual(mapping.representations(forOffered: mapping.targets(for: type)).representations.map(\.type), [type], "\(type)")
        }
    }
}

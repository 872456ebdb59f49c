import PasteboardDesktop
import PasteboardTypes
import XCTest

/// Which representations of real owners' offers are captured at once and which stay lazy.
final class DesktopImportPlanTests: XCTestCase {
    private let mapping = DesktopTypeMapping(registry: .builtIn)

    private func plan(_ offered: [String]) -> [String] {
        DesktopImportPlan(offer: mapping.representations(forOffered: offered)).entries.map {
            "\($0.representation.type.rawValue):\($0.handling == .capture ? "capture" : "promise")"
        }
    }

    func testXclipsTextIsCaptured() {
        XCTAssertEqual(plan(["TARGETS", "UTF8_STRING"]), ["public.utf8-plain-text:capture"])
    }

    func testAnImageIsAPromise() {
        XCTAssertEqual(plan(["TARGETS", "image/png"]), ["public.png:promise"])
    }

    func testABrowsersOfferCapturesOnlyTheTextInTheOwnersOrder() {
        let entries = plan(["TIMESTAMP", "TARGETS", "text/html", "UTF8_STRING", "STRING", "image/png"])
        XCTAssertEqual(entries, ["public.html:promise", "public.utf8-plain-text:capture", "public.png:promise"])
    }

    func testACapturedLatin1TextKeepsItsConversion() {
        let made = DesktopImportPlan(offer: mapping.representations(forOffered: ["STRING"]))
        XCTAssertEqual(made.captured.map(\.target), ["STRING"])
        XCTAssertEqual(made.captured.first?.conversion, .latin1ToUTF8)
        XCTAssertTrue(made.promised.isEmpty)
    }

    func testAConcealedOfferIsSensitive() {
        let made = DesktopImportPlan(offer: mapping.representations(forOffered: ["UTF8_STRING", DesktopTypeMapping.concealedTarget]))
        XCTAssertTrue(made.isSensitive)
        XCTAssertFalse(DesktopImportPlan(offer: mapping.representations(forOffered: ["UTF8_STRING"])).isSensitive)
    }

    func testTheCaptureBudgetIsOneMebibyte() {
        XCTAssertEqual(DesktopImportPlan.defaultCaptureBudget, 1_048_576)
    }
}

/// KDE's password-manager hint: captured at once, its value deciding whether the item is a secret.
final class DesktopImportPlanSecretTests: XCTestCase {
    private let mapping = DesktopTypeMapping(registry: .builtIn)
    private let hint = TypeIdentifier(rawValue: "org.kde.password-manager-hint")

    private func plan(_ offered: [String]) -> DesktopImportPlan {
        DesktopImportPlan(offer: mapping.representations(forOffered: offered))
    }

    func testTheHintIsCapturedBesideTheText() {
        let made = plan(["UTF8_STRING", "x-kde-passwordManagerHint"])
        XCTAssertEqual(made.captured.map(\.type), [.utf8PlainText, hint])
        XCTAssertFalse(made.isSensitive, "the name alone decides nothing")
    }

    func testOnlyTheValueSecretMakesASecret() {
        let made = plan(["UTF8_STRING", "x-kde-passwordManagerHint"])
        XCTAssertTrue(made.isSensitive(captured: [hint: Array("secret".utf8)]))
        XCTAssertTrue(made.isSensitive(captured: [hint: Array("secret\n".utf8)]))
        XCTAssertFalse(made.isSensitive(captured: [hint: Array("public".utf8)]))
        XCTAssertFalse(made.isSensitive(captured: [hint: []]))
        XCTAssertTrue(made.isSensitive(captured: [:]), "a hint that could not be read counts as secret, as the daemon counts it")
        XCTAssertFalse(plan(["UTF8_STRING"]).isSensitive(captured: [:]))
        XCTAssertTrue(plan(["UTF8_STRING", DesktopTypeMapping.concealedTarget]).isSensitive(captured: [:]))
    }
}

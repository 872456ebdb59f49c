import PasteboardDesktop
import PasteboardDesktopTypes
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

    func testABrowsersOfferCapturesOnlyTheTextWithTheHTMLAfterTheTypesEveryProgramKnows() {
        let entries = plan(["TIMESTAMP", "TARGETS", "text/html", "UTF8_STRING", "STRING", "image/png"])
        XCTAssertEqual(entries, ["public.utf8-plain-text:capture", "public.png:promise", "public.html:promise"])
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

/// KDE's password-manager hint: captured at once, and a secret only by its value.
final class PasswordManagerHintTests: XCTestCase {
    private let mapping = DesktopTypeMapping(registry: .builtIn)
    private let hint = TypeIdentifier("org.kde.password-manager-hint")

    private func plan(_ offered: [String]) -> DesktopImportPlan {
        DesktopImportPlan(offer: mapping.representations(forOffered: offered))
    }

    func testTheHintIsCapturedBesideTheText() {
        let made = plan(["text/plain;charset=utf-8", "x-kde-passwordManagerHint"])
        XCTAssertEqual(made.captured.map(\.type), [.utf8PlainText, hint])
        XCTAssertEqual(made.offer.passwordManagerHint?.target, "x-kde-passwordManagerHint")
    }

    func testTheValueSecretMakesTheItemSensitive() {
        let made = plan(["text/plain", "x-kde-passwordManagerHint"])
        XCTAssertFalse(made.isSensitive, "not by its names alone")
        XCTAssertTrue(made.isSensitive(captured: [hint: Array("secret".utf8)]))
        XCTAssertTrue(made.isSensitive(captured: [hint: Array(" secret\n".utf8)]))
        XCTAssertFalse(made.isSensitive(captured: [hint: Array("public".utf8)]))
        XCTAssertFalse(made.isSensitive(captured: [hint: Array("secrets".utf8)]))
        XCTAssertFalse(made.isSensitive(captured: [hint: Array(repeating: UInt8(ascii: " "), count: 100) + Array("secret".utf8)]))
    }

    func testAHintThatCouldNotBeReadCountsAsSecret() {
        XCTAssertTrue(plan(["text/plain", "x-kde-passwordManagerHint"]).isSensitive(captured: [:]))
    }

    func testWithoutAHintOnlyTheConcealedTypeMakesASecret() {
        XCTAssertFalse(plan(["text/plain"]).isSensitive(captured: [:]))
        XCTAssertTrue(plan(["text/plain", DesktopTypeMapping.concealedTarget]).isSensitive(captured: [:]))
    }

    func testTheHintIsMatchedInAnyCase() {
        XCTAssertTrue(DesktopTypeMapping.isPasswordManagerHint("X-KDE-PASSWORDMANAGERHINT"))
        XCTAssertFalse(DesktopTypeMapping.isPasswordManagerHint("x-kde-passwordManagerHints"))
    }
}

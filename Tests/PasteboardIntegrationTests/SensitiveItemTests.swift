import Foundation
import Pasteboard
import PasteboardTypes
import TestSupport
import XCTest

/// Secrets stay in memory: never in the state directory, the log, or a watcher's output; and
/// copies can expire.
final class SensitiveItemTests: IntegrationTestCase {
    func testASensitiveCopyIsPastedButNeverStoredOrLogged() throws {
        try pbOK("copy", stdin: Data("ordinary".utf8))
        try pbOK("copy", "--sensitive", stdin: Data("hunter2-secret".utf8))
        XCTAssertEqual(try pbOK("paste").stdoutText, "hunter2-secret")
        XCTAssertTrue(try pbOK("list").stdoutText.contains("(sensitive)"))
        XCTAssertFalse(try stateFilesContain("hunter2-secret"), "a secret never reaches the disk")
        XCTAssertFalse(daemon.log.contains("hunter2"), daemon.log)
        daemon.kill9()
        daemon = try DaemonProcess.started(in: sandbox)
        XCTAssertEqual(try changeCount(), 2, "the change is remembered")
        XCTAssertEqual((try listing()["items"] as? [Any])?.count, 0, "the secret is not")
    }

    func testPasswordManagerMarkersMakeAnItemSensitive() async throws {
        try await PasteboardConnection.withConnection(socketPath: sandbox.socketPath, clientName: "keepass", autoStart: false) { connection in
            var item = ItemProvider()
            item.registerData(Array("s3cr3t-pw".utf8), for: .utf8PlainText)
            item.registerData(Array("secret".utf8), for: TypeIdentifier(rawValue: "org.nspasteboard.ConcealedType"))
            try await Pasteboard(connection: connection).setItems([item])
            let items = try await Pasteboard(connection: connection).items()
            XCTAssertEqual(items.first?.isSensitive, true)
        }
        XCTAssertFalse(try stateFilesContain("s3cr3t-pw"))
        XCTAssertEqual(try pbOK("paste", "-t", "text").stdoutText, "s3cr3t-pw")
    }

    func testWatchReportsASensitiveChangeWithoutItsContent() throws {
        let watch = try startWatch()
        try pbOK("copy", "--sensitive", stdin: Data("top-secret".utf8))
        try pbOK("copy", stdin: Data("plain".utf8))
        let deadline = Date().addingTimeInterval(10)
        var output = ""
        while Date() < deadline {
            output = (try? String(contentsOfFile: watch.stdoutPath, encoding: .utf8)) ?? ""
            if output.contains("2 public.utf8-plain-text") { break }
            usleep(20_000)
        }
        XCTAssertTrue(output.contains("1 (sensitive)\n"), output)
        XCTAssertTrue(output.contains("2 public.utf8-plain-text"), output)
        XCTAssertFalse(output.contains("top-secret"), output)
    }

    func testKDEsHintMarksAnItemSecretOnlyWithTheValueSecret() throws {
        // As KeePassXC and KWallet write it: the password, and the hint with the value secret.
        try pbOK("copy", "--rep", "text/plain=kde-pw-1", "--rep", "x-kde-passwordManagerHint=secret")
        XCTAssertEqual(try pbOK("paste", "-t", "text").stdoutText, "kde-pw-1")
        XCTAssertTrue(try pbOK("list").stdoutText.contains("(sensitive)"))
        XCTAssertFalse(try stateFilesContain("kde-pw-1"), "a secret never reaches the disk")
        XCTAssertTrue(try pbOK("types").stdoutText.contains("x-kde-passwordManagerHint"), "the hint is a declared type")

        // Any other value is only a hint: the item is ordinary, stored and kept in history.
        try pbOK("copy", "--rep", "text/plain=kde-public-1", "--rep", "x-kde-passwordManagerHint=public")
        XCTAssertFalse(try pbOK("list").stdoutText.contains("(sensitive)"))
        XCTAssertTrue(eventually { (try? self.stateFilesContain("kde-public-1")) == true }, "an ordinary copy is durable")

        // nspasteboard.org's marker needs no value, and pb copy --rep takes it as well.
        try pbOK("copy", "--rep", "text/plain=concealed-pw-1", "--rep", "org.nspasteboard.ConcealedType=")
        XCTAssertTrue(try pbOK("list").stdoutText.contains("(sensitive)"))
        XCTAssertFalse(try stateFilesContain("concealed-pw-1"))
        XCTAssertFalse(try pbOK("history").stdoutText.contains("pw-1"), "no secret enters the history")
    }

    func testAnExpiringCopyIsClearedUnlessReplaced() throws {
        try pbOK("copy", "--expire", "0.3", stdin: Data("short-lived".utf8))
        try pbOK("copy", "-p", "other", "--expire", "0.3", stdin: Data("replaced".utf8))
        try pbOK("copy", "-p", "other", stdin: Data("stays".utf8))
        let deadline = Date().addingTimeInterval(10)
        while try changeCount() < 2, Date() < deadline { usleep(20_000) }
        XCTAssertEqual(try changeCount(), 2, "expiry clears the pasteboard: one more change")
        XCTAssertEqual((try listing()["items"] as? [Any])?.count, 0)
        XCTAssertEqual(try pbOK("paste", "-p", "other").stdoutText, "stays", "a newer copy is never cleared by an older one's expiry")
        XCTAssertEqual(try pb("copy", "--expire", "0", stdin: Data("x".utf8)).status, 2)
    }
}

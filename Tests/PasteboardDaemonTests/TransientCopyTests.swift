import Foundation
import NIOCore
@testable import PasteboardDaemon
import PasteboardTypes
import XCTest

/// The rule for transient copies (a password manager's: `pass -c` copies a secret, then puts
/// back what was there), on the history with the times given: which writes show the content
/// they replace was transient, and which leave it an ordinary entry.
final class TransientCopyTests: SpoolTestCase {
    private let window = 60.0

    private func text(_ text: String) -> StoredItem { .text(text) }

    /// A history of `contents` written one second apart from time 1000 on, change counts 1, 2, ….
    private func history(_ contents: [[StoredItem]], transientSeconds: Double? = 60) -> ContentHistory {
        var history = ContentHistory(limits: HistoryLimits(entries: 100, bytes: 1 << 30, transientSeconds: transientSeconds))
        for (index, items) in contents.enumerated() {
            XCTAssertNil(history.record(items, changeCount: index + 1, time: 1000 + Double(index)))
        }
        return history
    }

    func testAPasswordPutBackOverIsTransient() throws {
        let history = history([[text("before")], [text("s3cret")]])
        let transient = try XCTUnwrap(TransientCopy.shown(by: [text("before")], replacing: 2, at: 1001 + window, in: history))
        XCTAssertEqual(transient.sequence, history.entries[0].sequence)
        XCTAssertFalse(transient.cleared)
        XCTAssertTrue(transient.unsettled.isEmpty)
    }

    func testAClearOrAnEmptyTextSoonAfterIsTransient() {
        let history = history([[text("s3cret")]])
        XCTAssertEqual(TransientCopy.shown(by: [], replacing: 1, at: 1010, in: history)?.cleared, true)
        XCTAssertEqual(TransientCopy.shown(by: [text("")], replacing: 1, at: 1010, in: history)?.cleared, true, "pass puts back an empty clipboard as empty text")
    }

    func testTypesAndNamesDoNotMatterOnlyTheBytes() {
        var named = StoredItem(representations: [StoredRepresentation(type: .png, chunks: [ByteBuffer(bytes: [0x89, 0x50, 1, 2])]),
                                                 StoredRepresentation(type: .plainText, chunks: [ByteBuffer(string: "alt")])])
        named.suggestedName = "picture.png"
        let history = history([[named], [text("s3cret")]])
        let pasted = StoredItem(representations: [StoredRepresentation(type: .data, chunks: [ByteBuffer(bytes: [0x89, 0x50]), ByteBuffer(bytes: [1, 2])])])
        XCTAssertNotNil(TransientCopy.shown(by: [pasted], replacing: 2, at: 1002, in: history), "xclip -o gave the image's bytes, copied back untyped")
    }

    func testWhatLeavesAnOrdinaryEntry() {
        let history = history([[text("before")], [text("next")]])
        XCTAssertNil(TransientCopy.shown(by: [text("before")], replacing: 2, at: 1001 + window + 0.5, in: history), "replaced after the span")
        XCTAssertNil(TransientCopy.shown(by: [text("other")], replacing: 2, at: 1002, in: history), "replaced by something else")
        XCTAssertNil(TransientCopy.shown(by: [text("before"), text("more")], replacing: 2, at: 1002, in: history), "not as many items")
        XCTAssertNil(TransientCopy.shown(by: [text("before")], replacing: 3, at: 1002, in: history), "the content replaced is not in the history")
        XCTAssertNil(TransientCopy.shown(by: [text("before")], replacing: 2, at: 999, in: history), "a clock that went back")
        XCTAssertNil(TransientCopy.shown(by: [], replacing: 2, at: 1002, in: self.history([[text("before")], [text("next")]], transientSeconds: nil)),
                     "the rule is off")
    }

    func testContentCopiedAgainIsNeverTransient() {
        // "old" entered the history long ago; copied again (a restore moves its entry up), then
        // cleared at once: it is an old content, not a secret held for a moment.
        var history = history([[text("old"), text("two")]])
        XCTAssertNil(history.record([text("something")], changeCount: 2, time: 5000))
        XCTAssertNil(history.record([text("old"), text("two")], changeCount: 3, time: 5001))
        XCTAssertEqual(history.entries[0].firstTime, 1000)
        XCTAssertNil(TransientCopy.shown(by: [], replacing: 3, at: 5002, in: history))
    }

    func testStoredBytesAreComparedByReadingTheirFiles() throws {
        let store = fixture.store()
        let bytes = SpoolFixture.pattern(200 << 10, seed: 7)
        let original = try storedFile(bytes, in: store)
        let history = history([[StoredItem(representations: [StoredRepresentation(type: .png, file: original)])], [text("s3cret")]])

        let again = try storedFile(bytes, in: store)
        let transient = try XCTUnwrap(TransientCopy.shown(by: [StoredItem(representations: [StoredRepresentation(type: .png, file: again)])],
                                                          replacing: 2, at: 1002, in: history))
        XCTAssertEqual(transient.unsettled.count, 1, "two stored copies are compared by reading them")
        XCTAssertTrue(transient.bytesMatch())

        var changed = bytes
        changed[changed.count - 1] ^= 1
        let other = try storedFile(changed, in: store)
        let notTransient = try XCTUnwrap(TransientCopy.shown(by: [StoredItem(representations: [StoredRepresentation(type: .png, file: other)])],
                                                             replacing: 2, at: 1002, in: history), "the same size and first bytes: to be read")
        XCTAssertFalse(notTransient.bytesMatch(), "a last byte that differs")
    }

    /// A stored file holding `bytes`, written where the spool keeps it.
    private func storedFile(_ bytes: [UInt8], in store: SpoolStore) throws -> SpoolFile {
        let file = SpoolFile(id: SpoolFile.newID(), size: bytes.count, head: Array(bytes.prefix(SpoolPolicy.headLength)), durable: true,
                             directory: try store.directory(), reclaimer: store.reclaimer)
        try Data(bytes).write(to: URL(fileURLWithPath: file.path))
        chmod(file.path, 0o600)
        return file
    }
}

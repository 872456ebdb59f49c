import Foundation
import Logging
import NIOCore
@testable import PasteboardDaemon
import PasteboardTypes
import XCTest

/// The journal's bound: once it is full, writes go to files of their own, and everything
/// still reads back.
final class StorageWriterTests: XCTestCase {
    private var directory: String!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("pbwriter-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func pasteboard(_ name: String, filledWith byte: UInt8) -> NamedPasteboard {
        let item = StoredItem(representations: [StoredRepresentation(type: .data, chunks: [ByteBuffer(repeating: byte, count: 40_000)])])
        return NamedPasteboard(name: name).replacing([item])
    }

    /// The bytes `pasteboard`'s record takes in the journal.
    private func recordSize(_ pasteboard: NamedPasteboard) -> Int {
        4 + PasteboardArchive.encoded(pasteboard).reduce(0) { $0 + $1.readableBytes }
    }

    /// The names of the pasteboards whose records the journal holds, oldest first.
    private func journalNames() throws -> [String] {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: directory + "/journal"))
        var names: [String] = []
        _ = try JournalScanner(bytes: JournalMemoryBytes(bytes: ByteBuffer(bytes: bytes)), source: "journal").scan { archive, _ in
            if let pasteboard = try? PasteboardArchive.decode(archive, registry: .builtIn, source: "record") { names.append(pasteboard.name) }
        }
        return names
    }

    /// Puts a directory where the file `name` of the state directory goes, so it cannot be
    /// written: a pasteboard's file (it then cannot be checkpointed) or `journal.tmp` (the
    /// journal then cannot be compacted, and a checkpoint with a pasteboard that cannot be
    /// written fails altogether).
    private func block(_ name: String) throws {
        try FileManager.default.createDirectory(atPath: directory + "/" + name, withIntermediateDirectories: false)
    }

    private func unblock(_ name: String) throws {
        try FileManager.default.removeItem(atPath: directory + "/" + name)
    }

    private var historyDirectory: String { HistoryStorage.directory(inStateDirectory: directory) }

    /// A history entry too large for the journal, so it is written to its own file.
    private func largeEntry(_ sequence: Int) -> HistoryEntry {
        let item = StoredItem(representations: [StoredRepresentation(type: .data, chunks: [ByteBuffer(repeating: 9, count: StorageWriter.journalRecordLimit + 1)])])
        return HistoryEntry(sequence: sequence, changeCount: sequence, time: 0, items: [item])
    }

    private func entryFileExists(_ sequence: Int) -> Bool {
        FileManager.default.fileExists(atPath: historyDirectory + "/" + HistoryArchive.fileName(of: sequence))
    }

    private func restore() throws -> [String: NamedPasteboard] {
        let restored = try DurableStorage(directory: directory).loadAll(registry: .builtIn, logger: Logger(label: "test"))
        return Dictionary(uniqueKeysWithValues: restored.map { ($0.name, $0) })
    }

    private func data(of pasteboard: NamedPasteboard?) -> ByteBuffer? {
        guard case .data(let chunks) = pasteboard?.items.first?.representations.first?.content else { return nil }
        return chunks.reduce(into: ByteBuffer()) { $0.writeImmutableBuffer($1) }
    }

    func testAWriteThatFindsNoRoomEvenAfterACheckpointGoesToAFileOfItsOwn() async throws {
        // a, b and c cannot be checkpointed: the journal stays full of them.
        let names = ["a", "b", "c", "d", "e"]
        for name in names.prefix(3) { try block("\(name).pasteboard") }
        let writer = StorageWriter(directory: directory, journalSizeLimit: 150_000)
        for (index, name) in names.enumerated() {
            try await writer.commit(StorageWriter.Work(pasteboard: pasteboard(name, filledWith: UInt8(index + 1))))
        }
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: directory + "/journal")[.size] as? Int)
        XCTAssertLessThanOrEqual(size, 150_000, "the journal, zeros written ahead included, stays within its bound")
        XCTAssertEqual(try journalNames(), ["a", "b", "c"])
        let files = names.filter { (try? FileManager.default.attributesOfItem(atPath: directory + "/\($0).pasteboard")[.type] as? FileAttributeType) == .typeRegular }
        XCTAssertEqual(files, ["d", "e"], "the first three fill the journal; the others went to files of their own")

        for name in names.prefix(3) { try unblock("\(name).pasteboard") }
        let restored = try restore()
        XCTAssertEqual(restored.keys.sorted(), names)
        for (index, name) in names.enumerated() {
            XCTAssertEqual(data(of: restored[name]), ByteBuffer(repeating: UInt8(index + 1), count: 40_000), name)
        }
    }

    func testAWriteThatDoesNotFitInTheJournalCheckpointsItFirst() async throws {
        let a = pasteboard("a", filledWith: 1), b = pasteboard("b", filledWith: 2), c = pasteboard("c", filledWith: 3)
        let writer = StorageWriter(directory: directory, journalSizeLimit: JournalFile.headerLength + recordSize(a) + recordSize(b) + 20)
        try await writer.commit(StorageWriter.Work(pasteboard: a))
        try await writer.commit(StorageWriter.Work(pasteboard: b))
        try await writer.commit(StorageWriter.Work(pasteboard: c))
        XCTAssertEqual(try journalNames(), ["c"], "the checkpoint wrote a and b to their files and emptied the journal for c")
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory + "/c.pasteboard"))
        XCTAssertEqual(try restore().keys.sorted(), ["a", "b", "c"])
    }

    func testAFailedCheckpointNearTheBoundIsTriedAgainWhenAWriteNoLongerFits() async throws {
        // s cannot be checkpointed and, with journal.tmp blocked, the journal cannot be
        // compacted: every checkpoint fails until journal.tmp is freed.
        try block("s.pasteboard")
        try block(JournalFile.temporaryName)
        let s = pasteboard("s", filledWith: 1), a = pasteboard("a", filledWith: 2), b = pasteboard("b", filledWith: 3)
        let writer = StorageWriter(directory: directory, journalSizeLimit: JournalFile.headerLength + recordSize(s) + recordSize(a) + recordSize(b) + 20)
        for pasteboard in [s, a, b] { try await writer.commit(StorageWriter.Work(pasteboard: pasteboard)) }
        try await writer.commit(StorageWriter.Work(pasteboard: pasteboard("c", filledWith: 4)))
        XCTAssertTrue(FileManager.default.fileExists(atPath: directory + "/c.pasteboard"), "the checkpoint failed: c found no room")
        XCTAssertEqual(try journalNames(), ["s", "a", "b"])

        try unblock(JournalFile.temporaryName)
        try await writer.commit(StorageWriter.Work(pasteboard: pasteboard("d", filledWith: 5)))
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory + "/d.pasteboard"), "d found room: the checkpoint was tried again, without the journal growing by 4 MiB")
        XCTAssertEqual(try journalNames(), ["s", "d"], "compacted to what cannot be checkpointed, then d")

        try unblock("s.pasteboard")
        let restored = try restore()
        XCTAssertEqual(restored.keys.sorted(), ["a", "b", "c", "d", "s"])
        XCTAssertEqual(data(of: restored["d"]), ByteBuffer(repeating: 5, count: 40_000))
    }

    func testAClearWhenTheJournalIsFullLeavesNoOlderRecordOfThePasteboard() async throws {
        let c = pasteboard("c", filledWith: 1), b = pasteboard("b", filledWith: 2)
        let cleared = c.replacing([])
        let writer = StorageWriter(directory: directory, journalSizeLimit: JournalFile.headerLength + recordSize(c) + recordSize(b) + 20)
        XCTAssertGreaterThan(recordSize(cleared), 20, "the clear's record does not fit in what is left")
        try await writer.commit(StorageWriter.Work(pasteboard: c))
        try await writer.commit(StorageWriter.Work(pasteboard: b))
        try await writer.commit(StorageWriter.Work(pasteboard: cleared))
        XCTAssertFalse(try journalNames().contains("c"), "the cleared content does not stay on disk in the journal")
        let journal = try Data(contentsOf: URL(fileURLWithPath: directory + "/journal"))
        XCTAssertNil(journal.range(of: Data(repeating: 1, count: 1000)), "nor do its bytes")
        let restored = try restore()
        XCTAssertEqual(restored["c"]?.items.isEmpty, true)
        XCTAssertEqual(restored["c"]?.changeCount, cleared.changeCount)
    }

    func testAHistoryRemovalWhenTheJournalIsFullSucceeds() async throws {
        let a = pasteboard("a", filledWith: 1), b = pasteboard("b", filledWith: 2)
        let writer = StorageWriter(directory: directory, journalSizeLimit: JournalFile.headerLength + recordSize(a) + recordSize(b) + 20)
        try await writer.commit(StorageWriter.Work(history: HistoryChanges(write: [largeEntry(1)])))
        XCTAssertTrue(entryFileExists(1))
        try await writer.commit(StorageWriter.Work(pasteboard: a))
        try await writer.commit(StorageWriter.Work(pasteboard: b))
        // A history clear: removals only, with a checkpoint.
        try await writer.commit(StorageWriter.Work(history: HistoryChanges(remove: [1]), checkpoints: true))
        XCTAssertFalse(entryFileExists(1))
        XCTAssertEqual(try restore().keys.sorted(), ["a", "b"])
        XCTAssertFalse(entryFileExists(1), "the removal lasts")
    }

    func testAHistoryRemovalThatFindsNoRoomEvenAfterACheckpointRemovesTheFilesWithoutARecord() async throws {
        try block("s.pasteboard")
        try block(JournalFile.temporaryName)
        let s = pasteboard("s", filledWith: 1), a = pasteboard("a", filledWith: 2)
        let writer = StorageWriter(directory: directory, journalSizeLimit: JournalFile.headerLength + recordSize(s) + recordSize(a) + 20)
        try await writer.commit(StorageWriter.Work(history: HistoryChanges(write: [largeEntry(1), largeEntry(2)])))
        try await writer.commit(StorageWriter.Work(pasteboard: s))
        try await writer.commit(StorageWriter.Work(pasteboard: a))
        try await writer.commit(StorageWriter.Work(history: HistoryChanges(remove: [1, 2])))
        XCTAssertFalse(entryFileExists(1))
        XCTAssertFalse(entryFileExists(2))
        let journalBound = JournalFile.headerLength + recordSize(s) + recordSize(a) + 20
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: directory + "/journal")[.size] as? Int)
        XCTAssertLessThanOrEqual(size, journalBound)
    }
}

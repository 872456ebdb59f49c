import Foundation
import Glibc
import XCTest

/// The journal read back after a crash: a damaged record costs that record alone, the damaged
/// journal is kept aside, reading takes bounded memory, and a pasteboard that cannot be
/// checkpointed does not keep the others' content in the journal.
final class JournalRecoveryTests: IntegrationTestCase {
    private var journalPath: String { sandbox.stateDirectory + "/journal" }

    /// Where each whole record of the journal starts, and where the records end.
    private func recordOffsets() throws -> (starts: [Int], end: Int) {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: journalPath)))
        var starts: [Int] = []
        var offset = 8
        while offset + 4 <= bytes.count {
            let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            if length == 0 { break }
            starts.append(offset)
            offset += 4 + length
        }
        return (starts, offset)
    }

    private func journalSize() throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: journalPath)[.size] as? Int) ?? -1
    }

    /// The log's lines that contain `text`.
    private func logLines(_ text: String) -> [Substring] {
        daemon.log.split(separator: "\n").filter { $0.contains(text) }
    }

    /// Flips one byte inside the data of the record that starts at `start` and ends at `end`.
    private func flipByte(before end: Int) throws {
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: journalPath))
        defer { try? handle.close() }
        try handle.seek(toOffset: UInt64(end - 10))  // in the record's data, before its checksum
        let byte = try XCTUnwrap(handle.read(upToCount: 1)).first!
        try handle.seek(toOffset: UInt64(end - 10))
        try handle.write(contentsOf: Data([byte ^ 0x20]))
    }

    func testAFlippedByteInTheSecondOfFourRecordsLosesThatRecordOnlyAndKeepsTheJournalAside() throws {
        for number in 1...4 { try pbOK("copy", "-p", "p\(number)", stdin: Data("acknowledged copy number \(number)".utf8)) }
        daemon.kill9()
        let (starts, end) = try recordOffsets()
        // Each copy wrote its pasteboard's record and, for general only, a history entry: four records.
        XCTAssertEqual(starts.count, 4)
        try flipByte(before: starts[2])
        let damaged = try Data(contentsOf: URL(fileURLWithPath: journalPath))
        daemon = try DaemonProcess.started(in: sandbox)

        XCTAssertEqual(try pbOK("paste", "-p", "p1").stdoutText, "acknowledged copy number 1")
        XCTAssertEqual(try changeCount("p2"), 0, "the damaged record is never served")
        XCTAssertEqual(try pbOK("paste", "-p", "p3").stdoutText, "acknowledged copy number 3", "the records after the damaged one are kept")
        XCTAssertEqual(try pbOK("paste", "-p", "p4").stdoutText, "acknowledged copy number 4")
        let lost = logLines("lost a damaged journal record")
        XCTAssertEqual(lost.count, 1, daemon.log)
        XCTAssertTrue(lost.first?.contains(" error ") == true, "logged at level error: \(lost)")
        XCTAssertTrue(lost.first?.contains("pasteboard 'p2'") == true, "says what was lost: \(lost)")
        XCTAssertTrue(lost.first?.contains("byte=\(starts[1])") == true, "and where: \(lost)")
        XCTAssertFalse(daemon.log.contains("never acknowledged"), "damage inside is not a write cut short: \(daemon.log)")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: sandbox.stateDirectory + "/journal.damaged")), damaged,
                       "the damaged journal is kept for inspection")
        XCTAssertLessThan(end, damaged.count, "the copy holds the zeros after the records too")

        // Damage again: the earlier copy is not overwritten.
        try pbOK("copy", "-p", "p5", stdin: Data("after the first damage".utf8))
        try pbOK("copy", "-p", "p6", stdin: Data("and one more".utf8))
        daemon.kill9()
        let again = try recordOffsets()
        try flipByte(before: again.starts[1])
        daemon = try DaemonProcess.started(in: sandbox)
        XCTAssertEqual(try pbOK("paste", "-p", "p6").stdoutText, "and one more")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: sandbox.stateDirectory + "/journal.damaged")), damaged)
        XCTAssertTrue(FileManager.default.fileExists(atPath: sandbox.stateDirectory + "/journal.damaged.1"))
        XCTAssertEqual(try pbOK("paste", "-p", "p3").stdoutText, "acknowledged copy number 3")
    }

    func testAPasteboardThatCannotBeCheckpointedDoesNotKeepTheOthersContentInTheJournal() throws {
        // The stuck pasteboard's file cannot be written: a directory is where its temporary file goes.
        try FileManager.default.createDirectory(atPath: sandbox.stateDirectory + "/stuck.pasteboard.tmp", withIntermediateDirectories: false)
        try pbOK("copy", "-p", "stuck", stdin: Data("stuck in the journal".utf8))
        try pbOK("copy", "-p", "notes", stdin: Data("meet at the old mill".utf8))
        try pbOK("clear", "-p", "notes")
        XCTAssertFalse(try stateFilesContain("old mill"), "the clear's checkpoint went through for every other pasteboard")
        XCTAssertTrue(try stateFilesContain("stuck in the journal"), "the stuck pasteboard's newest content stays in the journal")
        XCTAssertTrue(daemon.waitForLog("pasteboard not checkpointed"), daemon.log)

        let item = sandbox.path("item.bin")
        for round in 0..<80 {
            try Data(repeating: UInt8(round), count: 60_000).write(to: URL(fileURLWithPath: item))
            try pbOK("copy", "-p", "growing", item)
        }
        XCTAssertLessThan(try journalSize(), 4 << 20, "80 writes of 60 KB would make 4.8 MB; checkpoints still empty the journal of them")

        daemon.kill9()
        daemon = try DaemonProcess.started(in: sandbox)
        XCTAssertEqual(try pbOK("paste", "-p", "stuck").stdoutText, "stuck in the journal", "kept through the compactions and the restart")
        XCTAssertEqual(try pbOK("paste", "-p", "growing").stdout, Data(repeating: 79, count: 60_000))
        XCTAssertEqual(try changeCount("notes"), 2)
        try FileManager.default.removeItem(atPath: sandbox.stateDirectory + "/stuck.pasteboard.tmp")
        try pbOK("clear", "-p", "notes")  // a checkpoint that can write the stuck pasteboard now
        XCTAssertEqual(try journalSize(), 8, "with nothing stuck, the checkpoint empties the journal")
        XCTAssertTrue(FileManager.default.fileExists(atPath: sandbox.stateDirectory + "/stuck.pasteboard"))
    }

    func testALargeJournalIsReadInBoundedMemory() throws {
        try pbOK("copy", "-p", "big", stdin: Data(repeating: 0x61, count: 60_000))
        daemon.kill9()
        let (starts, end) = try recordOffsets()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: journalPath))
        let record = bytes[starts[0]..<end]
        // 160 MiB of records of the same pasteboard, as a journal that was never checkpointed holds.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: journalPath))
        try handle.truncate(atOffset: UInt64(end))
        try handle.seek(toOffset: UInt64(end))
        let batch = Array(repeating: record, count: 64).reduce(Data(), +)
        var size = end
        while size < 160 << 20 {
            try handle.write(contentsOf: batch)
            size += batch.count
        }
        try handle.close()

        daemon = try DaemonProcess.started(in: sandbox)
        XCTAssertEqual(try pbOK("paste", "-p", "big").stdout, Data(repeating: 0x61, count: 60_000))
        let status = try String(contentsOfFile: "/proc/\(daemon.process.processIdentifier)/status", encoding: .utf8)
        let peak = try XCTUnwrap(status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }.flatMap { Int($0.split(separator: " ")[1]) })
        XCTAssertLessThan(peak, 96 << 10, "peak resident memory \(peak) KiB: the \(size >> 20) MiB journal was not read whole")
        XCTAssertEqual(try journalSize(), 8, "and the checkpoint at start emptied it")
    }
}

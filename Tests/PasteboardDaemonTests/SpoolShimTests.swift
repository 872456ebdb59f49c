import CPasteboardSystem
import Foundation
import PasteboardSystem
import XCTest

/// The system calls the spool reaches through CPasteboardSystem (glibc declares them only
/// under _GNU_SOURCE) do what their callers rely on, on this machine's filesystem.
final class SpoolShimTests: XCTestCase {
    private var directory: String!
    private var directoryFD: Int32 = -1

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("pbshim-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        directoryFD = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        XCTAssertGreaterThanOrEqual(directoryFD, 0)
    }

    override func tearDown() {
        close(directoryFD)
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func names() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
    }

    private func temporaryFile(holding bytes: [UInt8]) throws -> Int32 {
        let fd = pasteboard_open_tmpfile(directoryFD)
        guard fd >= 0 else { throw XCTSkip("O_TMPFILE is not supported here: \(SystemError.current)") }
        XCTAssertEqual(bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }, bytes.count)
        return fd
    }

    func testAnUnnamedFileGetsItsNameOnlyWhenLinked() throws {
        let fd = try temporaryFile(holding: Array("spooled".utf8))
        defer { close(fd) }
        XCTAssertEqual(names(), [], "an O_TMPFILE file has no name")
        XCTAssertEqual(pasteboard_sync_file_range_write(fd, 0, 7), 0)
        XCTAssertEqual(pasteboard_link_tmpfile(fd, directoryFD, "a.bytes"), 0, SystemError.current)
        XCTAssertEqual(names(), ["a.bytes"])
        XCTAssertEqual(try String(contentsOfFile: directory + "/a.bytes", encoding: .utf8), "spooled")
        XCTAssertEqual(pasteboard_link_tmpfile(fd, directoryFD, "a.bytes"), -1, "a taken name is refused, never replaced")
        XCTAssertEqual(errno, EEXIST)
    }

    func testCopyFileRangeCopiesFromAnOffsetWithoutMovingTheFilesOwn() throws {
        let source = try temporaryFile(holding: Array(0..<200))
        defer { close(source) }
        let target = try temporaryFile(holding: [])
        defer { close(target) }
        XCTAssertEqual(lseek(source, 3, SEEK_SET), 3)
        var sourceOffset: Int64 = 50
        var targetOffset: Int64 = 0
        XCTAssertEqual(pasteboard_copy_file_range(source, &sourceOffset, target, &targetOffset, 100), 100)
        XCTAssertEqual(sourceOffset, 150)
        XCTAssertEqual(targetOffset, 100)
        XCTAssertEqual(lseek(source, 0, SEEK_CUR), 3, "the source's shared offset does not move")
        var copied = [UInt8](repeating: 0, count: 100)
        XCTAssertEqual(copied.withUnsafeMutableBytes { pread(target, $0.baseAddress, 100, 0) }, 100)
        XCTAssertEqual(copied, Array(50..<150))
        XCTAssertEqual(pasteboard_copy_file_range(source, &sourceOffset, target, &targetOffset, 100), 50, "a short copy at the end")
        XCTAssertEqual(pasteboard_copy_file_range(source, &sourceOffset, target, &targetOffset, 100), 0, "0 at the end of the source")
    }

    func testACloneSharesTheBytesOrSaysTheFilesystemCannot() throws {
        let source = try temporaryFile(holding: Array(repeating: 7, count: 4096))
        defer { close(source) }
        let target = try temporaryFile(holding: [])
        defer { close(target) }
        if pasteboard_clone_file(target, source) == 0 {
            var cloned = [UInt8](repeating: 0, count: 4096)
            XCTAssertEqual(cloned.withUnsafeMutableBytes { pread(target, $0.baseAddress, 4096, 0) }, 4096)
            XCTAssertEqual(cloned, Array(repeating: 7, count: 4096))
        } else {
            // ext4 and tmpfs have no reflink: the caller falls back to copy_file_range.
            XCTAssertTrue([EOPNOTSUPP, EXDEV, EINVAL, ENOTTY].contains(errno), SystemError.current)
        }
    }

    func testFreeBytesAreReportedForTheDirectorysFilesystem() {
        var free: Int64 = -1
        XCTAssertEqual(pasteboard_free_bytes(directoryFD, &free), 0)
        XCTAssertGreaterThan(free, 0)
        XCTAssertEqual(pasteboard_free_bytes(-1, &free), -1, "a bad descriptor is an error, not a size")
    }
}

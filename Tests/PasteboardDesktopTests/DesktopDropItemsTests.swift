import Foundation
import Pasteboard
import PasteboardDesktop
import PasteboardTypes
import XCTest

/// What a drop from a desktop application becomes: the files of its uri-list.
final class DesktopDropItemsTests: XCTestCase {
    func testAURIListGivesItsLocalPathsInOrderAndSkipsTheRest() {
        let list = "# dragged from Files\r\nfile:///home/me/a%20b.png\r\n\r\nhttps://example.com/x.png\r\nfile://localhost/tmp/notes.txt\nfile:///bad%zz\r\n  file:///tmp/last  \r\n"
        XCTAssertEqual(DesktopDropItems.filePaths(inURIList: Array(list.utf8)),
                       ["/home/me/a b.png", "/tmp/notes.txt", "/tmp/last"])
        XCTAssertEqual(DesktopDropItems.filePaths(inURIList: []), [])
        XCTAssertEqual(DesktopDropItems.filePaths(inURIList: [0xff, 0xfe, 0x0a]), [], "bytes that are no URL name no file")
    }

    func testOnlyRegularFilesBecomeItemsTypedByTheirContentWithTheirURL() throws {
        let directory = NSTemporaryDirectory() + "drop-items-\(UUID().uuidString.prefix(6))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let png = directory + "/picture"  // no extension: the content says PNG
        try Data([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]).write(to: URL(fileURLWithPath: png))
        let items = DesktopDropItems.fileItems([png, directory, directory + "/missing"], registry: .builtIn)
        XCTAssertEqual(items.count, 1, "a directory and a missing file are no items")
        XCTAssertEqual(items[0].suggestedName, "picture")
        XCTAssertEqual(items[0].registeredTypes, [.png, .fileURL])
    }
}

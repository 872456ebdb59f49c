import PasteboardX11
import XCTest

/// The MANAGER announcement of ICCCM §2.8, byte for byte.
final class ClientMessageTests: XCTestCase {
    func testTheManagerAnnouncementIsAFormat32ClientMessageOnTheRoot() throws {
        let message = try ClientMessage.manager(root: WindowID(0x2b), managerAtom: Atom(300), time: 0x0102_0304, selection: Atom(301), owner: WindowID(0x40_0001))
        XCTAssertEqual(message.encoded, [
            33, 32, 0, 0,  // ClientMessage, format 32, sequence
            0x2b, 0, 0, 0,  // window: the root
            44, 1, 0, 0,  // type: MANAGER (300)
            4, 3, 2, 1,  // the time
            45, 1, 0, 0,  // the manager selection (301)
            1, 0, 0x40, 0,  // the owner window
            0, 0, 0, 0, 0, 0, 0, 0,  // the two unused items
        ])
    }

    func testAMessageCarriesAtMostFiveItems() {
        XCTAssertThrowsError(try ClientMessage(window: WindowID(1), type: Atom(2), data: [1, 2, 3, 4, 5, 6]))
        XCTAssertEqual(try ClientMessage(window: WindowID(1), type: Atom(2), data: [7]).data, [7, 0, 0, 0, 0])
    }
}

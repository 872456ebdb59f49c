@testable import PasteboardDesktop
import XCTest

final class WholeChunksTests: XCTestCase {
    func testPiecesOfAnySizeBecomeWholeChunksAndTheRestComesAtTheEnd() {
        var chunks = WholeChunks(size: 10)
        let data = (0..<57).map { UInt8($0) }
        var out: [[UInt8]] = []
        // Pieces of 3, 7, 25 and 22 bytes, as a daemon's frames might come.
        for range in [0..<3, 3..<10, 10..<35, 35..<57] { out += chunks.add(data[range]) }
        XCTAssertEqual(out.map(\.count), [10, 10, 10, 10, 10])
        let tail = chunks.finish()
        XCTAssertEqual(tail.count, 7)
        XCTAssertEqual((out + [tail]).flatMap { $0 }, data, "the bytes in order, none lost or repeated")
        XCTAssertEqual(chunks.finish(), [], "finish empties it")
    }
}

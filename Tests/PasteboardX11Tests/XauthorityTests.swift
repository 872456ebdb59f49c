import PasteboardX11
import XCTest

final class XauthorityTests: XCTestCase {
    /// One entry in libXau's format: family, then address, number, name and data with big-endian lengths.
    private func entry(family: UInt16, address: [UInt8], number: String, name: String = "MIT-MAGIC-COOKIE-1", data: [UInt8]) -> [UInt8] {
        func field(_ bytes: [UInt8]) -> [UInt8] { [UInt8(bytes.count >> 8), UInt8(bytes.count & 0xff)] + bytes }
        return [UInt8(family >> 8), UInt8(family & 0xff)] + field(address) + field(Array(number.utf8)) + field(Array(name.utf8)) + field(data)
    }

    func testParsesEntries() throws {
        let cookie = Array(0..<16 as Range<UInt8>)
        let bytes = entry(family: 256, address: Array("box".utf8), number: "0", data: cookie)
            + entry(family: 0, address: [10, 0, 0, 1], number: "12", name: "XDM-AUTHORIZATION-1", data: [1, 2])
        let entries = try Xauthority.parse(bytes)
        XCTAssertEqual(entries, [
            XauthorityEntry(family: 256, address: Array("box".utf8), number: "0", name: "MIT-MAGIC-COOKIE-1", data: cookie),
            XauthorityEntry(family: 0, address: [10, 0, 0, 1], number: "12", name: "XDM-AUTHORIZATION-1", data: [1, 2]),
        ])
        XCTAssertEqual(try Xauthority.parse([]), [])
    }

    func testChoosesAsLibXauDoes() throws {
        let entries = try Xauthority.parse(
            entry(family: 256, address: Array("other".utf8), number: "0", data: [1])
                + entry(family: 256, address: Array("box".utf8), number: "1", data: [2])
                + entry(family: 256, address: Array("box".utf8), number: "0", name: "XDM-AUTHORIZATION-1", data: [3])
                + entry(family: 256, address: Array("box".utf8), number: "0", data: [4])
                + entry(family: 65535, address: [], number: "", data: [5]))
        let box = Array("box".utf8)
        XCTAssertEqual(Xauthority.bestEntry(in: entries, family: 256, address: box, displayNumber: 0)?.data, [4])
        XCTAssertEqual(Xauthority.bestEntry(in: entries, family: 256, address: box, displayNumber: 1)?.data, [2])
        XCTAssertEqual(Xauthority.bestEntry(in: entries, family: 256, address: box, displayNumber: 9)?.data, [5], "FamilyWild matches any display")
        XCTAssertNil(Xauthority.bestEntry(in: Array(entries.prefix(4)), family: 256, address: box, displayNumber: 9))
        let anyNumber = try Xauthority.parse(entry(family: 256, address: box, number: "", data: [6]))
        XCTAssertEqual(Xauthority.bestEntry(in: anyNumber, family: 256, address: box, displayNumber: 42)?.data, [6], "an empty number matches every display")
    }

    func testTruncatedOrMalformedFilesAreErrorsNotCrashes() {
        let good = entry(family: 256, address: Array("box".utf8), number: "0", data: Array(repeating: 7, count: 16))
        for length in 1..<good.count {
            XCTAssertThrowsError(try Xauthority.parse(Array(good.prefix(length)), path: "/x/auth"), "truncated at \(length)") { error in
                guard case let .malformedAuthority(path, reason) = error as? X11Error else { return XCTFail("\(error)") }
                XCTAssertEqual(path, "/x/auth")
                XCTAssertTrue(reason.hasPrefix("entry 1 at byte"), reason)
            }
        }
        var huge = good
        huge[3] = 0xff  // the address claims 0x03ff bytes
        XCTAssertThrowsError(try Xauthority.parse(huge))
        XCTAssertThrowsError(try Xauthority.parse(entry(family: 256, address: [], number: "1x", data: []))) { error in
            XCTAssertTrue("\(error)".contains("not decimal"), "\(error)")
        }
        XCTAssertThrowsError(try Xauthority.parse(good + [0x01]), "a trailing byte") { error in
            XCTAssertTrue("\(error)".contains("entry 2"), "\(error)")
        }
        // Random bytes never crash.
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let bytes = (0..<Int.random(in: 0..<64, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            _ = try? Xauthority.parse(bytes)
        }
    }

    func testTheFileComesFromXAUTHORITYElseHome() {
        XCTAssertEqual(Xauthority.path(environment: ["XAUTHORITY": "/run/a", "HOME": "/home/u"]), "/run/a")
        XCTAssertEqual(Xauthority.path(environment: ["XAUTHORITY": "", "HOME": "/home/u"]), "/home/u/.Xauthority")
        XCTAssertNil(Xauthority.path(environment: [:]))
        XCTAssertNil(try Xauthority.load(path: "/nonexistent/xauthority-\(UInt32.random(in: 0...UInt32.max))"))
    }
}

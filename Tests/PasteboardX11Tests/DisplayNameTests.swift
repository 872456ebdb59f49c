import PasteboardX11
import XCTest

final class DisplayNameTests: XCTestCase {
    func testTheFormsLibxcbAccepts() throws {
        let local: [(String, Int, Int)] = [(":0", 0, 0), (":1.2", 1, 2), ("unix:7", 7, 0), ("unix:7.1", 7, 1), ("unix/:3", 3, 0)]
        for (text, number, screen) in local {
            let display = try DisplayName(text)
            XCTAssertTrue(display.isLocal, text)
            XCTAssertEqual(display.displayNumber, number, text)
            XCTAssertEqual(display.screen, screen, text)
            XCTAssertEqual(display.transport, .unix(paths: [.abstract("/tmp/.X11-unix/X\(number)"), .path("/tmp/.X11-unix/X\(number)")]), text)
        }
        let tcp: [(String, String, UInt16)] = [
            ("localhost:10.0", "localhost", 6010), ("host.example:0", "host.example", 6000),
            ("tcp/remote:3", "remote", 6003), ("[::1]:2", "::1", 6002), ("10.0.0.1:1.1", "10.0.0.1", 6001),
        ]
        for (text, host, port) in tcp {
            let display = try DisplayName(text)
            XCTAssertFalse(display.isLocal, "\(text): TCP (ssh -X forwards as localhost:10.0) is not local")
            XCTAssertEqual(display.transport, .tcp(host: host, port: port), text)
        }
        let path = try DisplayName("/private/tmp/com.apple.launchd.abc/org.xquartz:0")
        XCTAssertTrue(path.isLocal)
        XCTAssertEqual(path.transport, .unix(paths: [.path("/private/tmp/com.apple.launchd.abc/org.xquartz:0"), .path("/private/tmp/com.apple.launchd.abc/org.xquartz")]))
    }

    func testMalformedNamesAreRefusedWithAReason() {
        for text in ["", "0", ":", ":x", ":1.", ":1.2.3", ":-1", ":99999999", "host::0", ":65000", "unix/host:0", "decnet/x:0", ":１"] {
            XCTAssertThrowsError(try DisplayName(text), text) { error in
                guard case .badDisplayName(let name, _) = error as? X11Error else { return XCTFail("\(text): \(error)") }
                XCTAssertEqual(name, text)
            }
        }
    }
}

import PasteboardWayland
import XCTest

/// The socket is found as libwayland-client finds it.
final class CompositorSocketTests: XCTestCase {
    func testResolutionTable() throws {
        let cases: [([String: String], String)] = [
            (["XDG_RUNTIME_DIR": "/run/user/1000"], "/run/user/1000/wayland-0"),
            (["XDG_RUNTIME_DIR": "/run/user/1000", "WAYLAND_DISPLAY": ""], "/run/user/1000/wayland-0"),
            (["XDG_RUNTIME_DIR": "/run/user/1000", "WAYLAND_DISPLAY": "wayland-1"], "/run/user/1000/wayland-1"),
            (["XDG_RUNTIME_DIR": "/run/user/1000/", "WAYLAND_DISPLAY": "wayland-1"], "/run/user/1000/wayland-1"),
            (["WAYLAND_DISPLAY": "/tmp/sway/wayland-1"], "/tmp/sway/wayland-1"),
            (["XDG_RUNTIME_DIR": "/run/user/1000", "WAYLAND_DISPLAY": "/tmp/other"], "/tmp/other"),
        ]
        for (environment, expected) in cases {
            XCTAssertEqual(try CompositorSocket.resolve(environment: environment), expected, "\(environment)")
        }
    }

    func testARelativeDisplayWithoutRuntimeDirectoryIsAClearError() {
        XCTAssertThrowsError(try CompositorSocket.resolve(environment: ["WAYLAND_DISPLAY": "wayland-1"])) {
            XCTAssertEqual($0 as? WaylandError, .missingRuntimeDirectory(display: "wayland-1"))
            XCTAssertEqual("\($0)", "WAYLAND_DISPLAY=wayland-1 is relative to XDG_RUNTIME_DIR, which is not set")
        }
        XCTAssertThrowsError(try CompositorSocket.resolve(environment: [:])) {
            XCTAssertEqual($0 as? WaylandError, .missingRuntimeDirectory(display: "wayland-0"))
        }
    }

    func testAPathTooLongForASocketAddressIsRefused() {
        let long = "/" + String(repeating: "d", count: 120)
        XCTAssertThrowsError(try CompositorSocket.resolve(environment: ["WAYLAND_DISPLAY": long])) {
            XCTAssertEqual($0 as? WaylandError, .socketPathTooLong(path: long))
        }
    }

    func testConnectingToAMissingSocketNamesThePath() {
        XCTAssertThrowsError(try SelectionReader(socketPath: "/nonexistent/wayland-9")) {
            XCTAssertEqual($0 as? WaylandError, .cannotConnect(path: "/nonexistent/wayland-9", errno: ENOENT))
            XCTAssertTrue("\($0)".contains("/nonexistent/wayland-9"))
        }
    }
}

/// Client object ids: 1 is the display; ids come back only through delete_id.
final class ObjectIDAllocatorTests: XCTestCase {
    func testIDsStartAfterTheDisplayAndAreReusedLowestFirst() {
        var ids = ObjectIDAllocator()
        XCTAssertEqual((0..<4).map { _ in ids.allocate() }, [2, 3, 4, 5])
        ids.release(4)
        ids.release(3)
        ids.release(1)  // the display is never freed
        ids.release(99)  // never handed out
        XCTAssertEqual((0..<3).map { _ in ids.allocate() }, [3, 4, 6])
    }
}

/// What a Wayland failure says.
final class WaylandErrorTests: XCTestCase {
    func testAFailedConnectionNamesItsOwnErrnoNotWhateverErrnoIsNow() {
        // The words come from the errno the error carries: read from the thread's errno when
        // the message is made, a connection refused long ago read "Success".
        errno = 0
        let refused = WaylandError.cannotConnect(path: "/run/user/1000/wayland-1", errno: ECONNREFUSED)
        XCTAssertEqual(refused.description, "cannot connect to the Wayland compositor at /run/user/1000/wayland-1: Connection refused")
        XCTAssertEqual(WaylandError.connectionLost(errno: EPIPE).description, "the connection to the Wayland compositor failed: Broken pipe")
    }
}

import PasteboardDesktop
import PasteboardX11
import XCTest

/// Which displays the bridge tries, read from the environment as each display's own client
/// library reads it: Wayland first, X11 after it, a forwarded X display only when asked for.
final class DisplayChoiceTests: XCTestCase {
    private func choice(_ environment: [String: String], allowRemote: Bool = false) -> DisplayChoice {
        DisplayChoice(environment: environment, allowRemote: allowRemote)
    }

    func testARelativeWaylandDisplayIsInTheRuntimeDirectory() {
        let made = choice(["WAYLAND_DISPLAY": "wayland-1", "XDG_RUNTIME_DIR": "/run/user/1000"])
        XCTAssertEqual(made.candidates, [.wayland(socketPath: "/run/user/1000/wayland-1")])
        XCTAssertEqual(made.notes, [])
    }

    func testAnAbsoluteWaylandDisplayIsTakenAsItIs() {
        let made = choice(["WAYLAND_DISPLAY": "/tmp/compositor/wayland-9", "XDG_RUNTIME_DIR": "/run/user/1000"])
        XCTAssertEqual(made.candidates, [.wayland(socketPath: "/tmp/compositor/wayland-9")])
    }

    func testARelativeWaylandDisplayWithoutARuntimeDirectoryIsNotedNotUsed() {
        let made = choice(["WAYLAND_DISPLAY": "wayland-1"])
        XCTAssertTrue(made.isEmpty)
        XCTAssertEqual(made.notes.count, 1)
        XCTAssertTrue(made.notes[0].contains("WAYLAND_DISPLAY=wayland-1"), made.notes[0])
        XCTAssertTrue(made.notes[0].contains("XDG_RUNTIME_DIR"), made.notes[0])
    }

    func testALocalXDisplayIsACandidate() throws {
        let made = choice(["DISPLAY": ":1"])
        XCTAssertEqual(made.candidates, [.x11(try DisplayName(":1"))])
        XCTAssertEqual(made.notes, [])
    }

    func testAForwardedXDisplayIsBridgedOnlyWhenAskedFor() throws {
        let refused = choice(["DISPLAY": "localhost:10.0"])
        XCTAssertTrue(refused.isEmpty)
        XCTAssertEqual(refused.notes.count, 1)
        XCTAssertTrue(refused.notes[0].contains("forwarded (TCP) display"), refused.notes[0])
        XCTAssertTrue(refused.notes[0].contains("bridge-remote-display"), refused.notes[0])

        let allowed = choice(["DISPLAY": "localhost:10.0"], allowRemote: true)
        XCTAssertEqual(allowed.candidates, [.x11(try DisplayName("localhost:10.0"))])
        XCTAssertEqual(allowed.notes, [])
    }

    func testAMalformedXDisplayIsNotedNotUsed() {
        let made = choice(["DISPLAY": "not a display"])
        XCTAssertTrue(made.isEmpty)
        XCTAssertEqual(made.notes.count, 1)
        XCTAssertTrue(made.notes[0].hasPrefix("DISPLAY=not a display is not used"), made.notes[0])
    }

    func testWithBothWaylandComesFirst() throws {
        // Xwayland's clipboard is synced by the compositor: X11 is the fallback, never a second adapter.
        let made = choice(["DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0", "XDG_RUNTIME_DIR": "/run/user/1000"])
        XCTAssertEqual(made.candidates, [.wayland(socketPath: "/run/user/1000/wayland-0"), .x11(try DisplayName(":0"))])
    }

    func testNeitherSetOrBothEmptyIsNoDisplay() {
        XCTAssertTrue(choice([:]).isEmpty)
        XCTAssertEqual(choice([:]).notes, [])
        let empty = choice(["DISPLAY": "", "WAYLAND_DISPLAY": "", "XDG_RUNTIME_DIR": "/run/user/1000"])
        XCTAssertTrue(empty.isEmpty)
        XCTAssertEqual(empty.notes, [])
    }
}

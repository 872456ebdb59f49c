@testable import PasteboardX11
import XCTest

/// Finding the window a drag is over, on a window tree the test describes (the server's
/// answers as a fake `XdndWindowLookup`).
final class XdndTargetSearchTests: XCTestCase {
    /// A tree: each window's child under the point, and its properties.
    private struct Tree: XdndWindowLookup {
        var children: [WindowID: WindowID] = [:]
        var wmState: Set<WindowID> = []
        var aware: [WindowID: UInt32] = [:]
        var proxies: [WindowID: WindowID] = [:]

        func child(of window: WindowID, containingRootX x: Int16, y: Int16) throws -> WindowID? { children[window] }
        func hasWMState(_ window: WindowID) throws -> Bool { wmState.contains(window) }
        func awareVersion(of window: WindowID) throws -> UInt32? { aware[window] }
        func proxy(of window: WindowID) throws -> WindowID? { proxies[window] }
    }

    private let root = WindowID(1)
    private let frame = WindowID(10), client = WindowID(11), handle = WindowID(20)

    func testTheAwareWindowUnderTheWindowManagersFrameIsFound() throws {
        // root → frame (the window manager's) → client (WM_STATE, XdndAware 5).
        let tree = Tree(children: [root: frame, frame: client], wmState: [client], aware: [client: 5])
        let found = try XdndTargetSearch.window(underRootX: 10, y: 10, root: root, lookup: tree)
        XCTAssertEqual(found, XdndTargetWindow(window: client, awareVersion: 5))
        XCTAssertEqual(found?.version, .newest)
    }

    func testATopLevelWithoutXdndAwareIsNoTargetAndTheRootIsNothing() throws {
        let plain = Tree(children: [root: frame, frame: client], wmState: [client])
        let found = try XdndTargetSearch.window(underRootX: 0, y: 0, root: root, lookup: plain)
        XCTAssertEqual(found?.window, client)
        XCTAssertNil(found?.version, "a client that does not take drops")
        let bare = try XdndTargetSearch.window(underRootX: 0, y: 0, root: root, lookup: Tree())
        XCTAssertNil(bare, "over the root window, nothing")
    }

    func testAProxyTakesTheMessagesAndOurOwnHandleIsLookedThrough() throws {
        let proxied = Tree(children: [root: client], wmState: [client], aware: [client: 4], proxies: [client: WindowID(99)])
        let found = try XdndTargetSearch.window(underRootX: 0, y: 0, root: root, lookup: proxied)
        XCTAssertEqual(found?.proxy, WindowID(99))

        let overHandle = Tree(children: [root: handle], aware: [handle: 5])
        let ignored = try XdndTargetSearch.window(underRootX: 0, y: 0, root: root, ignoring: [handle], lookup: overHandle)
        XCTAssertNil(ignored, "the drag never targets its own handle")
    }

    func testACyclicOrEndlessTreeEndsWithinTheBound() throws {
        let cycle = Tree(children: [root: frame, frame: client, client: frame])
        let found = try XdndTargetSearch.window(underRootX: 0, y: 0, root: root, lookup: cycle)
        XCTAssertEqual(found, XdndTargetWindow(window: client, awareVersion: nil), "a window met again ends the walk")
        var deep = Tree()
        for level in 1..<100 { deep.children[WindowID(UInt32(level))] = WindowID(UInt32(level + 1)) }
        let bounded = try XdndTargetSearch.window(underRootX: 0, y: 0, root: root, lookup: deep)
        XCTAssertEqual(bounded?.window, WindowID(UInt32(XdndTargetSearch.depthLimit + 1)))
        XCTAssertNil(bounded?.version)
    }
}

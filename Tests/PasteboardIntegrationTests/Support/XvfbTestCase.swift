import Foundation
import PasteboardX11
import XCTest

/// A test case with an Xvfb of its own for each test, and connections to it that never read
/// the developer's Xauthority: the base of the tests that send the handle's and the zone's
/// requests themselves.
class XvfbTestCase: XCTestCase {
    var sandbox: Sandbox!
    var server: XvfbServer?

    override func setUpWithError() throws {
        sandbox = try Sandbox()
        server = try XvfbServer(sandbox: sandbox)
    }

    override func tearDown() {
        server?.stop()
        sandbox?.remove()
    }

    /// A new connection to the test's Xvfb.
    func connect() throws -> X11Connection {
        try X11Connection.connect(displayName: server!.display, environment: ["HOME": sandbox.root.path, "XAUTHORITY": sandbox.path("no-xauthority")])
    }
}

import Foundation
import XCTest

/// A test with its own sandbox and a real pasteboardd listening in it.
class IntegrationTestCase: XCTestCase {
    var sandbox: Sandbox!
    var daemon: DaemonProcess!

    override func setUpWithError() throws {
        sandbox = try Sandbox()
        daemon = try DaemonProcess.started(in: sandbox)
    }

    override func tearDown() {
        daemon?.stop()
        sandbox?.remove()
    }

    /// Runs `pb` against this test's daemon.
    @discardableResult
    func pb(_ arguments: String..., stdin: Data = Data(), autoStart: Bool = false) throws -> ProcessResult {
        try runTool("pb", arguments, stdin: stdin, environment: sandbox.environment(autoStart: autoStart), in: sandbox)
    }

    /// Runs `pb` and fails the test unless it exits 0.
    @discardableResult
    func pbOK(_ arguments: String..., stdin: Data = Data(), file: StaticString = #filePath, line: UInt = #line) throws -> ProcessResult {
        let result = try runTool("pb", arguments, stdin: stdin, environment: sandbox.environment(), in: sandbox)
        XCTAssertEqual(result.status, 0, "pb \(arguments.joined(separator: " ")): \(result.stderr)", file: file, line: line)
        return result
    }

    /// `pb list --json` decoded.
    func listing(_ pasteboard: String = "general") throws -> [String: Any] {
        let result = try pbOK("list", "-p", pasteboard, "--json")
        return try XCTUnwrap(JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
    }

    func changeCount(_ pasteboard: String = "general") throws -> Int {
        try XCTUnwrap(listing(pasteboard)["changeCount"] as? Int)
    }
}

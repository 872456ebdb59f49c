import Foundation
import XCTest

/// Integration tests of drag sessions: a real daemon, real `gallery` and `pb` processes, and
/// gallery files in the sandbox.
class DragDropTestCase: IntegrationTestCase {
    /// Runs `gallery` on the gallery file `file` (in the sandbox).
    @discardableResult
    func gallery(_ arguments: String..., file: String = "a.json") throws -> ProcessResult {
        try runTool("gallery", arguments + ["--file", sandbox.path(file)], environment: sandbox.environment(), in: sandbox)
    }

    /// Runs `gallery` and fails the test unless it exits 0.
    @discardableResult
    func galleryOK(_ arguments: String..., file: String = "a.json", line: UInt = #line) throws -> ProcessResult {
        let result = try runTool("gallery", arguments + ["--file", sandbox.path(file)], environment: sandbox.environment(), in: sandbox)
        XCTAssertEqual(result.status, 0, "gallery \(arguments.joined(separator: " ")): \(result.stderr)", line: line)
        return result
    }

    /// Starts `gallery drag` on `file`.
    func startGalleryDrag(_ arguments: String..., file: String = "a.json") throws -> (ToolProcess, Int) {
        let tool = try start("gallery", ["drag"] + arguments + ["--file", sandbox.path(file)])
        return (tool, try sessionID(of: tool))
    }

    /// Starts `pb drag`.
    func startPBDrag(_ arguments: String...) throws -> (ToolProcess, Int) {
        let tool = try start("pb", ["drag"] + arguments)
        return (tool, try sessionID(of: tool))
    }

    /// The session id a drag source printed on stderr ("... drag session N: ...").
    func sessionID(of tool: ToolProcess, line: UInt = #line) throws -> Int {
        let found = try XCTUnwrap(tool.waitForLine { $0.contains("drag session ") }, "no session id: \(tool.stderrLines)", line: line)
        let rest = found[found.range(of: "drag session ")!.upperBound...]
        return try XCTUnwrap(Int(rest.prefix { $0.isNumber }), found, line: line)
    }

    /// Waits for a drag source to end; returns its exit status and what it printed on stdout.
    func outcome(of tool: ToolProcess, line: UInt = #line) throws -> (status: Int32, stdout: String) {
        let status = try XCTUnwrap(tool.waitForExit(), "the drag source did not end: \(tool.stderrLines)", line: line)
        let stdout = try String(contentsOfFile: tool.stdoutPath, encoding: .utf8)
        return (status, stdout.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// The images of a gallery file, from `gallery list --json`.
    func images(_ file: String = "a.json", line: UInt = #line) throws -> [[String: Any]] {
        let result = try galleryOK("list", "--json", file: file, line: line)
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: result.stdout) as? [String: Any], line: line)
        return try XCTUnwrap(document["images"] as? [[String: Any]], line: line)
    }

    func titles(_ file: String = "a.json", line: UInt = #line) throws -> [String] {
        try images(file, line: line).map { $0["title"] as? String ?? "?" }
    }

    /// The bytes of an image's data file.
    func imageBytes(_ image: [String: Any], in file: String = "a.json") throws -> Data {
        let relative = try XCTUnwrap(image["file"] as? String)
        let directory = (sandbox.path(file) as NSString).deletingLastPathComponent
        return try Data(contentsOf: URL(fileURLWithPath: directory + "/" + relative))
    }

    /// Writes a PNG into the sandbox and returns its bytes.
    @discardableResult
    func writePNG(_ name: String, width: Int, height: Int, seed: UInt8 = 0) throws -> Data {
        let png = PNGFixture.make(width: width, height: height, seed: seed)
        try png.write(to: URL(fileURLWithPath: sandbox.path(name)))
        return png
    }

    /// Adds PNGs titled `titles` (each 2×1 scaled by its position) to `file`; returns their bytes in order.
    @discardableResult
    func addImages(_ titles: [String], to file: String = "a.json") throws -> [Data] {
        try titles.enumerated().map { index, title in
            let png = try writePNG("\(title).png", width: 20 * (index + 1), height: 10, seed: UInt8(index))
            try galleryOK("add", sandbox.path("\(title).png"), "--title", title, file: file)
            return png
        }
    }

    /// The files in a directory of the sandbox (empty when it does not exist).
    func files(in directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: sandbox.path(directory))) ?? []).sorted()
    }
}

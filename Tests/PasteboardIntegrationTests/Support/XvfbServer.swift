import Glibc
import Foundation
import XCTest

/// An `Xvfb` started by a test, on a display of its own: never the developer's `DISPLAY`.
/// Without a cookie it picks a free display itself (`-displayfd`); with one, the test picks
/// the number (the cookie is written for it with `xauth` before the server starts).
final class XvfbServer {
    let process: ToolProcess
    let displayNumber: Int
    var display: String { ":\(displayNumber)" }

    static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/Xvfb") }

    /// Starts Xvfb, or skips the test when it is not installed.
    /// `displayNumber` (with a cookie) starts it on that display: a server started again after
    /// a test killed it, for a client to reconnect to.
    init(sandbox: Sandbox, authorityFile: String? = nil, cookie: String? = nil, displayNumber requested: Int? = nil) throws {
        guard Self.isInstalled else { throw XCTSkip("Xvfb is not installed (apt-get install xvfb)") }
        var environment = sandbox.environment()
        environment.removeValue(forKey: "DISPLAY")
        environment.removeValue(forKey: "WAYLAND_DISPLAY")
        if let authorityFile, let cookie {
            let number = try requested ?? Self.freeDisplayNumber()
            let added = try runTool("/usr/bin/xauth", ["-f", authorityFile, "add", ":\(number)", ".", cookie], environment: environment, in: sandbox)
            XCTAssertEqual(added.status, 0, "xauth add: \(added.stderr)")
            process = try ToolProcess("/usr/bin/Xvfb", [":\(number)", "-auth", authorityFile, "-nolisten", "tcp", "-noreset", "-screen", "0", "640x480x24"], environment: environment, in: sandbox)
            displayNumber = number
            guard eventually(timeout: 20, { FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)") }) else {
                process.stop()
                throw XCTSkip("Xvfb :\(number) did not start: \(process.stderrLines.joined(separator: "\n"))")
            }
            usleep(100_000)
        } else {
            let started = try ToolProcess("/usr/bin/Xvfb", ["-displayfd", "1", "-nolisten", "tcp", "-noreset", "-screen", "0", "640x480x24"], environment: environment, in: sandbox)
            process = started
            var number: Int?
            _ = eventually(timeout: 20) {
                let text = (try? String(contentsOfFile: started.stdoutPath, encoding: .utf8)) ?? ""
                if text.hasSuffix("\n") { number = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) }
                return number != nil
            }
            guard let number else {
                started.stop()
                throw XCTSkip("Xvfb did not report its display: \(started.stderrLines.joined(separator: "\n"))")
            }
            displayNumber = number
        }
    }

    /// A display number with neither a lock file nor a socket. A lock whose server is gone (an
    /// Xvfb killed with SIGKILL leaves its lock and socket behind) is removed first, as X
    /// servers themselves do, so leftovers of earlier runs never use up the range.
    private static func freeDisplayNumber() throws -> Int {
        for number in (100..<400).shuffled() {
            let lock = "/tmp/.X\(number)-lock", socket = "/tmp/.X11-unix/X\(number)"
            if FileManager.default.fileExists(atPath: lock) {
                guard isStale(lock) else { continue }
                try? FileManager.default.removeItem(atPath: lock)
                try? FileManager.default.removeItem(atPath: socket)
            }
            if !FileManager.default.fileExists(atPath: socket) { return number }
        }
        throw XCTSkip("no free X display number")
    }

    /// Whether the X lock file at `path` names a process that no longer runs.
    private static func isStale(_ path: String) -> Bool {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8),
              let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)), pid > 0
        else { return false }
        return kill(pid, 0) != 0 && errno == ESRCH
    }

    func stop() { process.stop() }

    deinit { stop() }
}

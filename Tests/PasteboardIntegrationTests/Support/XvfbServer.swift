import Glibc
import Foundation
import PasteboardDesktop
import PasteboardX11
import TestSupport
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

    /// Starts `xclip -i` owning `selection` of this display with the file at `path` (as `target`
    /// when given), in the foreground: xclip stays to serve it until stopped. `environment` is the
    /// rest of its environment (the sandbox's by default; `XAUTHORITY` for a server with a cookie);
    /// DISPLAY is never inherited, the display is named.
    func startXclip(file path: String, selection: String = "clipboard", target: String? = nil,
                    environment: [String: String]? = nil, sandbox: Sandbox) throws -> ToolProcess {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/xclip") else { throw XCTSkip("xclip is not installed (apt-get install xclip)") }
        var arguments = ["-display", display, "-selection", selection, "-quiet", "-i"]
        if let target { arguments += ["-t", target] }
        var environment = environment ?? sandbox.environment()
        environment.removeValue(forKey: "DISPLAY")
        return try ToolProcess("/usr/bin/xclip", arguments + [path], environment: environment, in: sandbox)
    }

    /// `startXclip` with `text`, written to a file of the sandbox first.
    func startXclip(text: String, selection: String = "clipboard", target: String? = nil,
                    environment: [String: String]? = nil, sandbox: Sandbox) throws -> ToolProcess {
        let path = sandbox.path("xclip-\(UUID().uuidString.prefix(8))")
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return try startXclip(file: path, selection: selection, target: target, environment: environment, sandbox: sandbox)
    }

    /// This display for our own X11 code, with no cookie file (a server started without one
    /// runs without access control).
    func x11Display(sandbox: Sandbox) -> X11Display {
        X11Display(displayName: display, environment: x11Environment(sandbox: sandbox))
    }

    /// The environment our X11 code connects with: no cookie file.
    func x11Environment(sandbox: Sandbox) -> [String: String] {
        ["HOME": sandbox.root.path, "XAUTHORITY": sandbox.path("no-xauthority")]
    }

    func stop() { process.stop() }

    deinit { stop() }
}

import Foundation
import TestSupport

/// A shell script a terminal emulator runs (a tmux pane, an xterm), whose outcome the test reads
/// from files of the sandbox: the stderr of `body`, then its exit status, written last (through
/// a rename, so a status that is there is whole). With `staysOpen` the script then sleeps
/// instead of ending, so that the terminal (an xterm owning a selection) stays.
struct TerminalScript {
    let path: String
    private let statusPath: String
    private let stderrPath: String

    init(_ name: String, _ body: String, staysOpen: Bool = false, in sandbox: Sandbox) throws {
        path = sandbox.path("\(name).sh")
        statusPath = sandbox.path("\(name).status")
        stderrPath = sandbox.path("\(name).stderr")
        let script = """
            run() {
            \(body)
            }
            run 2> '\(stderrPath)'
            echo $? > '\(statusPath).partial' && mv '\(statusPath).partial' '\(statusPath)'
            \(staysOpen ? "exec sleep 100000" : "")

            """
        try script.write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// The command line that runs the script.
    var command: String { "/bin/sh '\(path)'" }

    /// The script's exit status once `body` has ended, or nil when it did not end in time.
    func waitForStatus(timeout: TimeInterval = 30) -> Int32? {
        var status: Int32?
        _ = eventually(timeout: timeout) {
            status = (try? String(contentsOfFile: statusPath, encoding: .utf8)).flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            return status != nil
        }
        return status
    }

    /// What `body` wrote to stderr.
    var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }
}

import Foundation
import Glibc
import TestSupport

/// A `pb link` a test started on one machine to another.
final class RunningLink {
    let from: LinkedMachine
    let to: LinkedMachine
    /// The destination as the dialing end names it (its status's `destination`).
    let destination: String
    let process: ToolProcess

    init(from: LinkedMachine, to: LinkedMachine, destination: String, process: ToolProcess) {
        self.from = from
        self.to = to
        self.destination = destination
        self.process = process
    }

    var pid: pid_t { process.process.processIdentifier }

    /// What `pb link` said on stderr so far.
    var log: String { process.stderrLines.joined(separator: "\n") }

    /// The dialing end's status, if it runs.
    var status: [String: Any]? { from.link(destination) }

    /// The status of the end ssh started on the other machine, if it runs.
    var servedStatus: [String: Any]? {
        to.links().first { $0["destination"] as? String == "served" && $0["peer"] as? String == from.name }
    }

    /// Waits (up to `timeout` seconds) until both ends say `up`, each naming the other; whether they did.
    func waitUntilUp(timeout: TimeInterval = 60) -> Bool {
        eventually(timeout: timeout) {
            guard process.process.isRunning else { return false }
            guard let status, status["state"] as? String == "up", status["peer"] as? String == to.name else { return false }
            return servedStatus?["state"] as? String == "up"
        }
    }

    /// Waits (up to `timeout` seconds) until the link is up again over a new session: the
    /// dialing end up, and an end ssh started on the other machine, other than `old`, up too.
    func waitUntilUpAgain(replacing old: Int?, timeout: TimeInterval = 60) -> Bool {
        eventually(timeout: timeout) {
            guard status?["state"] as? String == "up" else { return false }
            return to.links().contains { served in
                served["destination"] as? String == "served" && served["peer"] as? String == from.name
                    && served["pid"] as? Int != old && served["state"] as? String == "up"
            }
        }
    }

    /// The ssh process this link runs now (a child of `pb link`), if any. pb spawns it from one
    /// of its pool's threads, whose children /proc lists under that thread only.
    var sshProcess: pid_t? {
        let threads = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        let children = threads.flatMap { thread in
            ((try? String(contentsOfFile: "/proc/\(pid)/task/\(thread)/children", encoding: .utf8)) ?? "").split(separator: " ").compactMap { pid_t($0) }
        }
        return children.first { ProcessTree.command(of: $0) == "ssh" && !ProcessTree.hasEnded($0) }
    }

    /// SIGTERM, then waits for the exit (SIGKILL after 10 s); the exit status, nil when killed.
    @discardableResult
    func stop() -> Int32? {
        guard process.process.isRunning else { return process.waitForExit(timeout: 0) }
        process.signal(SIGTERM)
        if let status = process.waitForExit(timeout: 10) { return status }
        process.stop()
        return nil
    }
}

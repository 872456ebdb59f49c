import Foundation
import Glibc
import TestSupport
import XCTest

/// Several isolated machines (`LinkedMachine`: A, B, C…) on this host, each with its own daemon,
/// and a real sshd on loopback (`LoopbackSSHServer`) through which `pb link` on one reaches
/// another, as it reaches another host: ssh logs in, checks the host key, and runs the other
/// machine's `pb link --serve` there (`--remote-pb`, in that machine's environment).
final class LinkedMachines {
    let machines: [LinkedMachine]
    let server: LoopbackSSHServer
    private let sshSandbox: Sandbox
    private var links: [RunningLink] = []

    /// Makes the machines named `names`, starts their daemons and sshd. Skips the test when
    /// OpenSSH is missing.
    init(_ names: [String]) throws {
        try LoopbackSSHServer.requireTools()
        sshSandbox = try Sandbox()
        var made: [LinkedMachine] = []
        do {
            server = try LoopbackSSHServer(in: sshSandbox)
            for name in names {
                let machine = try LinkedMachine(name: name)
                made.append(machine)
                try machine.startDaemon()
            }
        } catch {
            for machine in made { machine.remove() }
            sshSandbox.remove()
            throw error
        }
        machines = made
    }

    subscript(name: String) -> LinkedMachine {
        guard let machine = machines.first(where: { $0.name == name }) else { fatalError("no machine \(name)") }
        return machine
    }

    /// The destination that names `machine` to ssh (`pb link`'s argument, and its status's name):
    /// its name in lower case, which `sshCommand` sends to 127.0.0.1.
    func destination(of machine: LinkedMachine) -> String { machine.name.lowercased() }

    /// The ssh command `pb link --ssh` runs: no configuration of the user's, this server's port
    /// and key, any destination taken to 127.0.0.1, and the host key checked against the server's
    /// own known_hosts file, without prompts.
    var sshCommand: String { sshCommand() }

    /// `sshCommand` with `options` of ssh's added (`-o ControlMaster=auto`…).
    func sshCommand(_ options: [String] = []) -> String {
        ([LoopbackSSHServer.ssh, "-F", "none", "-p", String(server.port), "-i", server.clientKey, "-o", "IdentitiesOnly=yes",
         "-o", "HostName=127.0.0.1", "-o", "User=\(server.user)", "-o", "UserKnownHostsFile=\(server.knownHostsFile)",
         "-o", "StrictHostKeyChecking=yes", "-o", "BatchMode=yes", "-o", "LogLevel=ERROR"] + options).joined(separator: " ")
    }

    /// Starts `pb link` on `from` to `to` with `options` (before the destination), stopped at `stop()`.
    @discardableResult
    func link(_ from: LinkedMachine, to: LinkedMachine, options: [String] = [], sshOptions: [String] = []) throws -> RunningLink {
        let destination = destination(of: to)
        let process = try from.startPB(["link", "--ssh", sshCommand(sshOptions), "--remote-pb", to.remotePB] + options + [destination])
        let link = RunningLink(from: from, to: to, destination: destination, process: process)
        links.append(link)
        return link
    }

    /// Runs `pb link --once` on `from` with `options` to completion (a link that fails at once).
    func linkOnce(_ from: LinkedMachine, to destination: String, options: [String]) throws -> ProcessResult {
        try runTool("pb", ["link", "--once"] + options + [destination], environment: from.environment, in: from.sandbox)
    }

    /// Stops every link (SIGTERM, then wait), sshd, and the daemons, and removes the machines' files.
    func stop() {
        for link in links { link.stop() }
        links = []
        server.stop()
        for machine in machines { machine.remove() }
        sshSandbox.remove()
    }
}

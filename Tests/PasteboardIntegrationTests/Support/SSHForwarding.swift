import Foundation
import Glibc
import XCTest

/// A real OpenSSH forwarding of the daemon's socket on loopback, as a user sets it up to reach
/// a workstation's pasteboard from a remote shell: a `LoopbackSSHServer`, and `ssh -R
/// REMOTE:LOCAL -N` logged in to it, so that processes connecting to `remoteSocket` reach the
/// daemon on `localSocket` through ssh.
///
/// Needs Debian's `openssh-server` and `openssh-client` (`.ci/run` installs them): without
/// them the test is skipped; with them, a forwarding that does not come up is a failure.
final class SSHForwarding {
    /// The forwarded socket: the "remote" end, which sshd listens on.
    let remoteSocket: String
    private var server: LoopbackSSHServer?
    private var client: ShellWrappedProcess?

    /// Starts sshd on a free loopback port and `ssh -R remoteSocket:localSocket`, and waits until
    /// the forwarded socket reaches the daemon. The remote socket is `remote/pasteboardd.sock` in
    /// the sandbox unless `remoteSocket` names another (its directory must exist).
    init(forwarding localSocket: String, to remoteSocket: String? = nil, in sandbox: Sandbox) throws {
        try LoopbackSSHServer.requireTools()
        self.remoteSocket = remoteSocket ?? sandbox.path("remote/pasteboardd.sock")
        try FileManager.default.createDirectory(atPath: sandbox.path("remote"), withIntermediateDirectories: true)
        let server = try LoopbackSSHServer(in: sandbox)
        self.server = server
        let client = try server.startClient(["-o", "ExitOnForwardFailure=yes", "-o", "StreamLocalBindUnlink=yes",
                                             "-N", "-R", "\(self.remoteSocket):\(localSocket)"],
                                            pidFile: "\(server.directory)/ssh.pid")
        self.client = client
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, client.isRunning {
            if let raw = try? RawClient(socketPath: self.remoteSocket) {
                defer { raw.close() }
                if (try? raw.hello())?.op == "welcome" { return }
            }
            usleep(20_000)
        }
        let failure = "ssh -R did not forward the socket: \(client.shell.stderrLines.joined(separator: "\n")) \(server.log)"
        stop()
        throw RawClient.Failure(description: failure)
    }

    /// Ends the forwarding: ssh first (its session in sshd ends with it), then sshd.
    func stop() {
        client?.stop()
        server?.stop()
        client = nil
        server = nil
    }

    deinit { stop() }
}

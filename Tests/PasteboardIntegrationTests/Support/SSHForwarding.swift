import Foundation
import Glibc
import PasteboardSystem
import XCTest

/// A real OpenSSH forwarding of the daemon's socket on loopback, as a user sets it up to reach
/// a workstation's pasteboard from a remote shell: an `sshd` on 127.0.0.1 with a host key and
/// an authorized key made for the test, and `ssh -R REMOTE:LOCAL -N` logged in to it, so that
/// processes connecting to `remoteSocket` reach the daemon on `localSocket` through ssh.
///
/// Needs Debian's `openssh-server` and `openssh-client` (`.ci/run` installs them): without
/// them the test is skipped; with them, a forwarding that does not come up is a failure.
final class SSHForwarding {
    static let sshd = "/usr/sbin/sshd"
    static let ssh = "/usr/bin/ssh"
    static let sshKeygen = "/usr/bin/ssh-keygen"

    /// The forwarded socket: the "remote" end, which sshd listens on.
    let remoteSocket: String
    private let directory: String
    private var server: Wrapped?
    private var client: Wrapped?

    /// A program run by a shell that waits for it. sshd and ssh close every descriptor they
    /// inherit, including the one Foundation's `Process` watches to learn that a child exited
    /// (it would then block waiting for a child that still runs, and no other `Process` would
    /// finish): the shell keeps that one open, and the program is stopped by its pid.
    private struct Wrapped {
        let shell: ToolProcess
        let pidFile: String

        init(_ program: String, _ arguments: [String], pidFile: String, sandbox: Sandbox) throws {
            self.pidFile = pidFile
            shell = try ToolProcess("/bin/sh", ["-c", "\"$0\" \"$@\" & echo $! > '\(pidFile)'; wait $!", program] + arguments,
                                    environment: sandbox.environment(), in: sandbox)
        }

        var isRunning: Bool { shell.process.isRunning }

        /// SIGTERM to the program, then waits for the shell; SIGKILL to both if that fails.
        func stop() {
            let deadline = Date().addingTimeInterval(10)
            var pid: Int32?
            while pid == nil, shell.process.isRunning, Date() < deadline {
                pid = (try? String(contentsOfFile: pidFile, encoding: .utf8)).flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
                if pid == nil { usleep(10_000) }
            }
            if let pid { kill(pid, SIGTERM) }
            if shell.waitForExit(timeout: 10) == nil {
                if let pid { kill(pid, SIGKILL) }
                shell.stop()
            }
        }
    }

    /// Starts sshd on a free loopback port and `ssh -R remoteSocket:localSocket`, and waits until
    /// the forwarded socket reaches the daemon. The remote socket is `remote/pasteboardd.sock` in
    /// the sandbox unless `remoteSocket` names another (its directory must exist).
    init(forwarding localSocket: String, to remoteSocket: String? = nil, in sandbox: Sandbox) throws {
        for tool in [Self.sshd, Self.ssh, Self.sshKeygen] where access(tool, X_OK) != 0 {
            throw XCTSkip("\(tool) is missing: apt-get install openssh-server openssh-client")
        }
        directory = sandbox.path("ssh-\(UUID().uuidString.prefix(8))")  // one per forwarding: a test may make two
        self.remoteSocket = remoteSocket ?? sandbox.path("remote/pasteboardd.sock")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: sandbox.path("remote"), withIntermediateDirectories: true)
        // sshd refuses to start without its privilege separation directory.
        if !FileManager.default.fileExists(atPath: "/run/sshd") {
            try? FileManager.default.createDirectory(atPath: "/run/sshd", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        }
        for key in ["host_key", "client_key"] {
            let keygen = try runTool(Self.sshKeygen, ["-q", "-t", "ed25519", "-N", "", "-C", "pasteboard-test", "-f", "\(directory)/\(key)"],
                                     environment: sandbox.environment(), in: sandbox)
            guard keygen.status == 0 else { throw RawClient.Failure(description: "ssh-keygen failed: \(keygen.stderr)") }
        }
        try FileManager.default.copyItem(atPath: "\(directory)/client_key.pub", toPath: "\(directory)/authorized_keys")

        var port = 0
        for _ in 0..<3 where server == nil {
            port = try Self.freeLoopbackPort()
            let config = "\(directory)/sshd_config"
            try """
                ListenAddress 127.0.0.1
                Port \(port)
                HostKey \(directory)/host_key
                AuthorizedKeysFile \(directory)/authorized_keys
                PidFile \(directory)/sshd.pid
                StrictModes no
                UsePAM no
                PermitRootLogin prohibit-password
                PasswordAuthentication no
                KbdInteractiveAuthentication no
                AllowStreamLocalForwarding yes
                StreamLocalBindUnlink yes

                """.write(toFile: config, atomically: true, encoding: .utf8)
            let candidate = try Wrapped(Self.sshd, ["-D", "-e", "-f", config], pidFile: "\(directory)/sshd.wrapped.pid", sandbox: sandbox)
            if candidate.shell.waitForLine(where: { $0.contains("Server listening on 127.0.0.1 port \(port)") }) != nil {
                server = candidate
            } else {
                candidate.stop()
                if !candidate.shell.stderrLines.contains(where: { $0.contains("Address already in use") }) {
                    throw RawClient.Failure(description: "sshd did not start: \(candidate.shell.stderrLines.joined(separator: "\n"))")
                }
            }
        }
        guard server != nil else { throw RawClient.Failure(description: "sshd found no free port") }

        let user = String(cString: getpwuid(getuid()).pointee.pw_name)
        let client = try Wrapped(Self.ssh, [
            "-F", "/dev/null", "-i", "\(directory)/client_key", "-p", String(port),
            "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null", "-o", "BatchMode=yes",
            "-o", "LogLevel=ERROR", "-o", "ExitOnForwardFailure=yes", "-o", "StreamLocalBindUnlink=yes",
            "-N", "-R", "\(self.remoteSocket):\(localSocket)", "\(user)@127.0.0.1",
        ], pidFile: "\(directory)/ssh.pid", sandbox: sandbox)
        self.client = client
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, client.isRunning {
            if let raw = try? RawClient(socketPath: self.remoteSocket) {
                defer { raw.close() }
                if (try? raw.hello())?.op == "welcome" { return }
            }
            usleep(20_000)
        }
        let failure = "ssh -R did not forward the socket: \(client.shell.stderrLines.joined(separator: "\n")) \(server?.shell.stderrLines.joined(separator: "\n") ?? "")"
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

    /// A TCP port on 127.0.0.1 that nothing listens on right now.
    private static func freeLoopbackPort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw RawClient.Failure(description: "socket: \(errno)") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else { throw RawClient.Failure(description: "bind: \(SystemError.current)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

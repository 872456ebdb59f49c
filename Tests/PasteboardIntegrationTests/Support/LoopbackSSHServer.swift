import Foundation
import Glibc
import PasteboardSystem
import XCTest

/// A real OpenSSH server on loopback, as the user's own sshd on another machine: `sshd` on a
/// free port of 127.0.0.1 with a host key and an authorized key made for the test, so that
/// `ssh` with `clientKey` logs in as this user without a prompt, checking the host key against
/// `knownHostsFile` as a user's ssh does.
///
/// Needs Debian's `openssh-server` and `openssh-client` (`.ci/run` installs them): without
/// them the test is skipped; with them, a server that does not come up is a failure.
final class LoopbackSSHServer {
    static let sshd = "/usr/sbin/sshd"
    static let ssh = "/usr/bin/ssh"
    static let sshKeygen = "/usr/bin/ssh-keygen"

    /// Where the keys, the configuration and the pid files are.
    let directory: String
    /// The port sshd listens on, on 127.0.0.1.
    private(set) var port = 0
    /// The private key whose public half sshd authorizes.
    var clientKey: String { directory + "/client_key" }
    /// A known_hosts file naming the server's host key for `[127.0.0.1]:port`.
    var knownHostsFile: String { directory + "/known_hosts" }
    /// The user ssh logs in as: this process's.
    let user = String(cString: getpwuid(getuid()).pointee.pw_name)
    private var server: ShellWrappedProcess?
    private let sandbox: Sandbox

    /// Skips the test unless sshd, ssh and ssh-keygen are installed.
    static func requireTools() throws {
        for tool in [sshd, ssh, sshKeygen] where access(tool, X_OK) != 0 {
            throw XCTSkip("\(tool) is missing: apt-get install openssh-server openssh-client")
        }
    }

    /// Makes the keys and starts sshd, in a directory of its own in `sandbox`; returns once it listens.
    init(in sandbox: Sandbox) throws {
        try Self.requireTools()
        self.sandbox = sandbox
        directory = sandbox.path("ssh-\(UUID().uuidString.prefix(8))")  // one per server: a test may make two
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
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
            let candidate = try ShellWrappedProcess(Self.sshd, ["-D", "-e", "-f", config], pidFile: "\(directory)/sshd.wrapped.pid",
                                                    environment: sandbox.environment(), in: sandbox)
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
        let hostKey = try String(contentsOfFile: "\(directory)/host_key.pub", encoding: .utf8)
        try "[127.0.0.1]:\(port) \(hostKey)".write(toFile: knownHostsFile, atomically: true, encoding: .utf8)
    }

    /// What sshd logged so far (its sessions' failures among it).
    var log: String { server?.shell.stderrLines.joined(separator: "\n") ?? "" }

    /// Starts `ssh` (run by a shell that waits for it) with `options` before the destination
    /// (this user at 127.0.0.1 on the server's port, without checking the host key) and
    /// `remote` after it.
    func startClient(_ options: [String], remote: [String] = [], pidFile: String) throws -> ShellWrappedProcess {
        try ShellWrappedProcess(Self.ssh, [
            "-F", "/dev/null", "-i", clientKey, "-p", String(port),
            "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null", "-o", "BatchMode=yes", "-o", "LogLevel=ERROR",
        ] + options + ["\(user)@127.0.0.1"] + remote, pidFile: pidFile, environment: sandbox.environment(), in: sandbox)
    }

    /// Stops sshd (the sessions it runs end with their clients).
    func stop() {
        server?.stop()
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

#if canImport(Glibc)
import Glibc
#endif

/// An OpenSSH server on 127.0.0.1 for the link scenario, with a host key and a client key made
/// for the run: the "other machine" is this one, reached through a real ssh, so both the link
/// and its baseline pay what ssh costs (key exchange, encryption).
struct LoopbackSSH {
    static let sshd = "/usr/sbin/sshd"
    static let ssh = "/usr/bin/ssh"
    static let keygen = "/usr/bin/ssh-keygen"

    let directory: String
    let port: Int
    private let server: Spawned

    /// Why the scenario cannot run here, or nil.
    static var missing: String? {
        for tool in [sshd, ssh, keygen] where access(tool, X_OK) != 0 { return "\(tool) not installed (openssh-server, openssh-client)" }
        return nil
    }

    /// Makes the keys and starts sshd on a free port; waits until it accepts connections.
    static func start(in directory: String) throws -> LoopbackSSH {
        if access("/run/sshd", F_OK) != 0 { mkdir("/run/sshd", 0o755) }
        for key in ["host_key", "client_key"] {
            guard try Spawned.start([keygen, "-q", "-t", "ed25519", "-N", "", "-C", "pasteboard-bench", "-f", "\(directory)/\(key)"]).wait() == 0 else {
                throw BenchError("ssh-keygen failed")
            }
        }
        guard system("cp '\(directory)/client_key.pub' '\(directory)/authorized_keys'") == 0 else { throw BenchError("cannot write authorized_keys") }
        let port = try freePort()
        let config = """
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

            """
        guard let file = fopen("\(directory)/sshd_config", "w") else { throw BenchError("cannot write sshd_config") }
        fputs(config, file)
        fclose(file)
        let server = try Spawned.start([sshd, "-D", "-e", "-f", "\(directory)/sshd_config"], output: "\(directory)/sshd.log")
        let ssh = LoopbackSSH(directory: directory, port: port, server: server)
        for _ in 0..<500 {
            if ssh.accepts() { return ssh }
            usleep(10_000)
        }
        server.stop()
        throw BenchError("sshd did not start (see \(directory)/sshd.log)")
    }

    /// The ssh command and options that reach the server (as `pb link --ssh` and the baseline take them).
    var words: [String] {
        [Self.ssh, "-F", "/dev/null", "-i", "\(directory)/client_key", "-p", String(port), "-o", "StrictHostKeyChecking=no",
         "-o", "UserKnownHostsFile=/dev/null", "-o", "BatchMode=yes", "-o", "LogLevel=ERROR"]
    }

    /// `user@127.0.0.1`.
    var destination: String {
        String(cString: getpwuid(getuid()).pointee.pw_name) + "@127.0.0.1"
    }

    func stop() { server.stop() }

    private func accepts() -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = Self.loopback(port: port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return address
    }

    private static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw BenchError("socket failed") }
        defer { close(fd) }
        var address = loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw BenchError("no free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

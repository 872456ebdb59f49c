#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import PasteboardSystem

/// A listening socket that systemd passed to the daemon (socket activation, as `sd_listen_fds`
/// reads it): `LISTEN_PID` is this process, `LISTEN_FDS` counts the descriptors from 3, and
/// `LISTEN_FDNAMES` may name them. The daemon serves the first one, which must be a listening
/// Unix stream socket with a path; systemd owns its file, so the daemon neither replaces nor
/// removes it.
package struct ActivatedSocket: Sendable, Equatable {
    /// The first descriptor passed, as `sd_listen_fds` numbers them.
    package static let firstDescriptor: Int32 = 3

    /// The listening socket's descriptor.
    package let descriptor: Int32
    /// The socket file's path, as the socket itself says (`getsockname`).
    package let path: String
    /// Its name in `LISTEN_FDNAMES` (the socket unit's `FileDescriptorName=`), if given.
    package let name: String?
    /// How many descriptors systemd passed; the daemon serves only the first.
    package let passedCount: Int

    /// The socket systemd passed to this process, or nil when it passed none (no `LISTEN_PID`
    /// or `LISTEN_FDS`, or they are for another process). Unsets the `LISTEN_*` variables
    /// either way, so no child inherits them, and marks the passed descriptors close-on-exec.
    /// Throws when the variables are for this process but do not pass a usable socket.
    package static func takeFromEnvironment() throws(DaemonError) -> ActivatedSocket? {
        let environment = ["LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES"].reduce(into: [String: String]()) { values, name in
            values[name] = getenv(name).map { String(cString: $0) }
        }
        for name in environment.keys { unsetenv(name) }
        let count = try passedCount(environment: environment, pid: getpid())
        guard count > 0 else { return nil }
        for offset in 0..<Int32(count) {
            _ = fcntl(firstDescriptor + offset, F_SETFD, FD_CLOEXEC)
        }
        let name = environment["LISTEN_FDNAMES"]?.split(separator: ":", omittingEmptySubsequences: false).first.map(String.init)
        return try adopt(firstDescriptor, name: name, passedCount: count)
    }

    /// How many descriptors `environment` passes to the process `pid`: 0 unless `LISTEN_PID` is
    /// `pid` and `LISTEN_FDS` is set; throws when `LISTEN_FDS` is not a count.
    static func passedCount(environment: [String: String], pid: Int32) throws(DaemonError) -> Int {
        guard let listenPID = environment["LISTEN_PID"], Int32(listenPID) == pid, let listenFDs = environment["LISTEN_FDS"] else {
            return 0
        }
        guard let count = Int(listenFDs), count >= 0, count < 1024 else {
            throw .socketActivation("LISTEN_FDS is '\(listenFDs)', not a number of descriptors")
        }
        return count
    }

    /// Checks that `descriptor` is a listening Unix stream socket bound to a path, and reads the path.
    static func adopt(_ descriptor: Int32, name: String?, passedCount: Int) throws(DaemonError) -> ActivatedSocket {
        let subject = "descriptor \(descriptor)" + (name.map { " ('\($0)')" } ?? "")
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            throw .socketActivation("\(subject) is not open: \(SystemError.current)")
        }
        guard (info.st_mode & S_IFMT) == S_IFSOCK else {
            throw .socketActivation("\(subject) is not a socket but \(fileKind(info.st_mode))")
        }
        let domain = try socketOption(descriptor, SO_DOMAIN, subject: subject)
        guard domain == AF_UNIX else { throw .socketActivation("\(subject) is not a Unix-domain socket (ListenStream= must be a path)") }
        let type = try socketOption(descriptor, SO_TYPE, subject: subject)
        guard type == Int32(SOCK_STREAM.rawValue) else {
            throw .socketActivation("\(subject) is not a stream socket (use ListenStream=, not ListenDatagram= or ListenSequentialPacket=)")
        }
        guard try socketOption(descriptor, SO_ACCEPTCONN, subject: subject) != 0 else {
            throw .socketActivation("\(subject) is not listening")
        }
        guard let path = boundPath(descriptor) else {
            throw .socketActivation("\(subject) has no path (an abstract or unnamed socket); pasteboardd needs a socket file, with its hand-off socket and lock beside it")
        }
        return ActivatedSocket(descriptor: descriptor, path: path, name: name, passedCount: passedCount)
    }

    private static func socketOption(_ descriptor: Int32, _ option: Int32, subject: String) throws(DaemonError) -> Int32 {
        var value: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor, SOL_SOCKET, option, &value, &length) == 0 else {
            throw .socketActivation("\(subject): getsockopt: \(SystemError.current)")
        }
        return value
    }

    /// The path a Unix socket is bound to; nil for an unnamed or abstract one.
    private static func boundPath(_ descriptor: Int32) -> String? {
        var address = sockaddr_un()
        var length = socklen_t(MemoryLayout<sockaddr_un>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) == 0 }
        }
        let pathOffset = MemoryLayout<sockaddr_un>.offset(of: \.sun_path)!
        guard named, Int(length) > pathOffset else { return nil }
        let bytes = withUnsafeBytes(of: &address.sun_path) { raw in
            Array(raw.prefix(Int(length) - pathOffset).prefix { $0 != 0 })
        }
        guard !bytes.isEmpty else { return nil }  // abstract: the name starts with a NUL byte
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func fileKind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFREG: "a regular file"
        case S_IFDIR: "a directory"
        case S_IFIFO: "a pipe"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        default: "another kind of file"
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import PasteboardProtocol
import PasteboardSystem

/// Who this daemon is to the daemons it is linked with: a machine id, which the origins of its
/// changes carry and which orders concurrent changes (see `ChangeOrigin`), and a name for humans.
///
/// The id is the daemon's own, not `/etc/machine-id`: two users of one host are two machines to
/// a link, and an id that names nothing of the host is no fingerprint of it. It is made at
/// random when the state directory is first used and kept there in `machine-id` (mode 0600),
/// so it stays the same across restarts; a daemon without a state directory makes one per start.
package struct MachineIdentity: Sendable, Equatable {
    /// 32 lowercase hexadecimal digits.
    package let id: String
    /// The host name, or the `machine-name` setting.
    package let name: String

    package init(id: String, name: String) {
        self.id = id
        self.name = name
    }

    /// A new random id named `name` (a daemon without a state directory; tests).
    package static func ephemeral(name: String? = nil) -> MachineIdentity {
        MachineIdentity(id: randomID(), name: name ?? hostName)
    }

    /// The id kept in `directory/machine-id`, made there when there is none (or it is not an
    /// id: a damaged file is replaced, since nothing but links depend on it).
    package static func load(stateDirectory directory: String, name: String? = nil) throws(DaemonError) -> MachineIdentity {
        let path = directory + "/machine-id"
        if case .success(let fd) = OwnFile.open(path, O_RDONLY) {
            var buffer = [UInt8](repeating: 0, count: 64)
            let count = read(fd, &buffer, buffer.count)
            close(fd)
            if count >= 32 {
                let text = String(decoding: buffer[..<32], as: UTF8.self)
                if MachineID.isValid(text) { return MachineIdentity(id: text, name: name ?? hostName) }
            }
        }
        let id = randomID()
        let temporary = path + ".tmp"
        unlink(temporary)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw .system(operation: "create", path: temporary, errno: errno) }
        let bytes = Array((id + "\n").utf8)
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        let synced = fsync(fd) == 0
        close(fd)
        guard written == bytes.count, synced, rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw .system(operation: "write", path: path, errno: code)
        }
        return MachineIdentity(id: id, name: name ?? hostName)
    }

    /// This host's name (`gethostname`), or "localhost" when it has none.
    package static var hostName: String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? "localhost" : name
    }

    private static func randomID() -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: (0..<32).map { _ in digits[Int(generator.next() % 16)] }, as: UTF8.self)
    }
}

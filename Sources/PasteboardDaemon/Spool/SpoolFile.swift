#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import PasteboardProtocol
import PasteboardSystem
import Synchronization

/// One stored representation's file, `<state>/data/<id>.bytes`, complete and (when
/// `durable`) synced with its name.
///
/// Every pasteboard, history entry and transfer that holds these bytes holds this one object
/// (ARC), so a copy kept in the history costs its bytes on disk once, and the file lives
/// exactly as long as something refers to it: when the last reference goes, `deinit` hands
/// the id to the reclaimer.
package final class SpoolFile: Sendable {
    /// 32 lowercase hexadecimal digits, random (`SpoolFile.newID`).
    let id: String
    /// The file's size in bytes.
    let size: Int
    /// The first `SpoolPolicy.headLength` bytes (all of them when shorter), kept in memory for
    /// the history preview and search.
    let head: [UInt8]
    /// False for a scratch spool (a drag, `primary`, a memory-only pasteboard): unsynced and
    /// never named in an archive.
    let durable: Bool
    /// Set once an archive or journal record naming the file has been encoded. A named file
    /// may only be removed after the next checkpoint, so no record on disk still names it;
    /// setting it too early only delays the removal, the safe direction.
    let named: Atomic<Bool>

    private let directory: SpoolDirectory
    private let reclaimer: SpoolReclaimer

    init(id: String, size: Int, head: [UInt8], durable: Bool, named: Bool = false, directory: SpoolDirectory, reclaimer: SpoolReclaimer) {
        self.id = id
        self.size = size
        self.head = head
        self.durable = durable
        self.named = Atomic(named)
        self.directory = directory
        self.reclaimer = reclaimer
    }

    deinit {
        reclaimer.release(SpoolReclaimer.Released(name: Self.name(of: id), directory: directory, size: size), named: named.load(ordering: .acquiring))
    }

    /// The file's name in `data/`.
    var name: String { Self.name(of: id) }

    /// The file's path, for messages and for opening it to serve a paste.
    var path: String { directory.path(of: name) }

    /// Why a stored file cannot be served or restored, in words naming the file (see `open`).
    struct Unusable: Error, CustomStringConvertible {
        let description: String
    }

    /// Opens the file for reading and checks it (see `open(_:in:size:)`); throws
    /// `source-unavailable` saying what is wrong, which a paste reports whether it streams the
    /// bytes or hands the descriptor to the destination.
    func openForReading() throws(ProtocolError) -> Int32 {
        do {
            return try Self.open(name, in: directory, size: size)
        } catch {
            throw ProtocolError(.sourceUnavailable, "the stored bytes are missing or damaged: \(error)")
        }
    }

    /// Opens the stored file `name` in `directory` read-only with `OwnFile.flags` (never through
    /// a symbolic link, never blocking on a FIFO put in its place) and checks, with one fstat,
    /// that it is a regular file of this user holding exactly `size` bytes: a file truncated,
    /// grown or replaced behind the daemon's back is refused rather than served with the size
    /// its record gives. Returns the open descriptor, which the caller closes.
    static func open(_ name: String, in directory: SpoolDirectory, size: Int) throws(Unusable) -> Int32 {
        let path = directory.path(of: name)
        let fd = openat(directory.fd, name, O_RDONLY | OwnFile.flags)
        guard fd >= 0 else {
            let reason = errno == ELOOP ? "it is a symbolic link" : SystemError.current
            throw Unusable(description: "cannot open \(path): \(reason)")
        }
        var info = stat()
        let problem: String?
        if fstat(fd, &info) != 0 {
            problem = "cannot stat \(path): \(SystemError.current)"
        } else if info.st_mode & S_IFMT != S_IFREG {
            problem = "\(path) is not a regular file (it is \(OwnFile.kind(of: info.st_mode)))"
        } else if info.st_uid != getuid() {
            problem = "\(path) is owned by uid \(info.st_uid), not \(getuid())"
        } else if info.st_size != off_t(size) {
            problem = "\(path) holds \(info.st_size) bytes, not the \(size) stored"
        } else {
            problem = nil
        }
        if let problem {
            close(fd)
            throw Unusable(description: problem)
        }
        return fd
    }

    /// Records that an archive naming the file was encoded (see `named`).
    func markNamed() {
        named.store(true, ordering: .releasing)
    }

    /// The suffix of a complete spool file.
    static let suffix = ".bytes"
    /// The suffix of a spool being written where O_TMPFILE is not supported.
    static let temporarySuffix = ".bytes.tmp"

    /// The name in `data/` of the spool file `id`.
    static func name(of id: String) -> String { id + suffix }

    /// A new random id: 128 bits from the system's generator as 32 lowercase hex digits, as
    /// `HandoffEndpoint.token`, so ids never collide and cannot be guessed.
    static func newID() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let digits = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }.joined()
    }

    /// The id in a spool file's name (`<id>.bytes`, or `<id>.bytes.tmp` when `temporary`), or
    /// nil when the name is not one the spool makes: anything else in `data/` is left alone.
    static func id(inName name: String, temporary: Bool) -> String? {
        let suffix = temporary ? temporarySuffix : suffix
        guard name.hasSuffix(suffix) else { return nil }
        let id = name.dropLast(suffix.count)
        guard id.utf8.count == 32, id.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else { return nil }
        return String(id)
    }
}

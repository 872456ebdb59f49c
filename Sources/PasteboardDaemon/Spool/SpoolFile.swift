#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import PasteboardProtocol
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

    /// Opens the file for reading, through the data directory's descriptor and never following
    /// a link; throws `source-unavailable` naming the file when it cannot be opened.
    func openForReading() throws(ProtocolError) -> Int32 {
        let fd = openat(directory.fd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else {
            throw ProtocolError(.sourceUnavailable, "cannot read the stored bytes \(path): \(String(cString: strerror(errno)))")
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

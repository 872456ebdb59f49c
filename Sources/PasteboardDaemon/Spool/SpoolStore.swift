#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Logging
import PasteboardProtocol
import PasteboardSystem
import PasteboardTypes
import Synchronization

/// The daemon's stored data: `<state>/data`, one file per large eager representation
/// (`<id>.bytes`), written as the bytes arrive (`sink`), shared by every pasteboard and
/// history entry that holds them, and removed when nothing refers to them (`reclaimer`) or,
/// after a crash, by the sweep at start.
///
/// The directory is created (mode 0700) on first use, so a daemon that never stores anything
/// large has no `data/`.
final class SpoolStore: Sendable {
    /// `<state>/data`.
    let path: String
    /// The threads every spool write, sync and unlink runs on.
    let io: SpoolIO
    /// Removes files nothing refers to any more.
    let reclaimer: SpoolReclaimer

    private let system: SpoolSystem
    private let opened = Mutex<SpoolDirectory?>(nil)

    /// The data directory of the state directory `stateDirectory`.
    static func directory(inStateDirectory stateDirectory: String) -> String {
        stateDirectory + "/data"
    }

    /// A store in `<stateDirectory>/data` doing its I/O on `io`; `system` replaces system
    /// calls in tests.
    init(stateDirectory: String, io: SpoolIO, system: SpoolSystem = .live) {
        path = Self.directory(inStateDirectory: stateDirectory)
        self.io = io
        self.system = system
        reclaimer = SpoolReclaimer(io: io)
    }

    /// The open data directory, created and checked on first use; throws `storage-failed`
    /// when it cannot be used (another owner, group- or world-writable, a symbolic link).
    func directory() throws(ProtocolError) -> SpoolDirectory {
        if let directory = opened.withLock({ $0 }) { return directory }
        let directory = try SpoolDirectory(path: path)
        return opened.withLock { opened in
            if let existing = opened { return existing }
            opened = directory
            return directory
        }
    }

    /// Starts a spool: a new file in `data/`, written as `append` is called. With `expected`
    /// (the declared size), free space for it is checked first. `grant` is told the bytes
    /// written after each write. `durable` spools are synced before `finish` returns; scratch
    /// ones (drags, `primary`) are not.
    func sink(durable: Bool, expected: Int?, grant: @escaping @Sendable (Int) async -> Void) throws(ProtocolError) -> SpoolSink {
        let directory = try directory()
        if let expected { try SpoolFreeSpace.check(needed: expected, free: system.freeBytes(directory.fd), directory: path) }
        return try SpoolSink(directory: directory, io: io, system: system, reclaimer: reclaimer, durable: durable, expected: expected, grant: grant)
    }

    /// The stored file `id`, written before the daemon started, as a record names it: it must
    /// be a regular file of ours of exactly `size` bytes (its first bytes are read for the
    /// history's preview). Throws `storage-failed` saying what is wrong.
    func reopen(id: String, size: Int) throws(ProtocolError) -> SpoolFile {
        let name = SpoolFile.name(of: id)
        guard SpoolFile.id(inName: name, temporary: false) == id else {
            throw ProtocolError(.storageFailed, "'\(id)' is not the id of a stored file")
        }
        let directory = try directory()
        let fd: Int32
        do {
            fd = try SpoolFile.open(name, in: directory, size: size)
        } catch {
            throw ProtocolError(.storageFailed, error.description)
        }
        defer { close(fd) }
        var head = [UInt8](repeating: 0, count: min(size, SpoolPolicy.headLength))
        let got = head.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard got == head.count else {
            let reason = got < 0 ? SystemError.current : "it ended after \(got) of \(head.count) bytes"
            throw ProtocolError(.storageFailed, "cannot read \(directory.path(of: name)): \(reason)")
        }
        return SpoolFile(id: id, size: size, head: head, durable: true, named: true, directory: directory, reclaimer: reclaimer)
    }

    /// Throws `storage-failed` unless `bytes` more would leave `SpoolPolicy.freeSpaceReserve`
    /// free in `data/`: a copy is refused before its first byte, not half way.
    func requireFree(_ bytes: Int) throws(ProtocolError) {
        let directory = try directory()
        try SpoolFreeSpace.check(needed: bytes, free: system.freeBytes(directory.fd), directory: path)
    }

    /// What a sweep removed.
    struct Sweep: Equatable {
        var files = 0
        var bytes = 0
    }

    /// Removes every spool file whose id is not in `ids` (the ones a pasteboard or history
    /// entry names) and every `.bytes.tmp`: what a crash mid-copy, a failed commit or a damaged
    /// archive left. Runs once at start, before any spool is written. Files of other names,
    /// and anything that is not a regular file of ours, are left alone (and logged).
    @discardableResult
    func sweep(keeping ids: Set<String>, logger: Logger) -> Sweep {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            if errno != ENOENT {
                logger.warning("cannot read the data directory", metadata: ["directory": "\(path)", "error": "\(SystemError.current)"])
            }
            return Sweep()
        }
        let directory: SpoolDirectory
        do {
            directory = try self.directory()
        } catch {
            logger.error("the data directory cannot be used; stored files are not swept", metadata: ["reason": "\(error.message)"])
            return Sweep()
        }
        let listing = dup(directory.fd)
        guard listing >= 0, let stream = fdopendir(listing) else {
            if listing >= 0 { close(listing) }
            logger.warning("cannot list the data directory", metadata: ["directory": "\(path)", "error": "\(SystemError.current)"])
            return Sweep()
        }
        defer { closedir(stream) }
        rewinddir(stream)
        var swept = Sweep()
        for name in DirectoryEntries.names(of: stream) {
            let id = SpoolFile.id(inName: name, temporary: false)
            let leftover = SpoolFile.id(inName: name, temporary: true) != nil || (id.map { !ids.contains($0) } ?? false)
            guard leftover else { continue }
            var file = stat()
            guard fstatat(directory.fd, name, &file, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
            guard file.st_mode & S_IFMT == S_IFREG, file.st_uid == getuid() else {
                logger.warning("a stored file's name in the data directory is not a file of ours; it is left alone",
                               metadata: ["file": "\(directory.path(of: name))", "kind": "\(OwnFile.kind(of: file.st_mode))"])
                continue
            }
            guard unlinkat(directory.fd, name, 0) == 0 else { continue }
            swept.files += 1
            swept.bytes = swept.bytes.addingReportingOverflow(Int(file.st_size)).partialValue
        }
        if swept.files > 0 {
            _ = directory.sync()
            logger.notice("removed \(swept.files) stored files no pasteboard or history entry names, \(ByteCount.describe(swept.bytes))")
        }
        return swept
    }
}

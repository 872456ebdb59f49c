#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CPasteboardSystem
import NIOCore
import PasteboardProtocol
import PasteboardSystem
import Synchronization

/// The open file of one spool being written and what has happened to it: the part of a
/// `SpoolSink` that its draining task holds, so that a sink dropped mid-write (its `deinit`)
/// leaves the task to close and remove the file once the write in progress returns, and the
/// descriptor is never closed under a write.
final class SpoolWriter: Sendable {
    /// The spool's id (its file becomes `<id>.bytes`).
    let id: String
    /// The directory the file is in.
    let directory: SpoolDirectory
    /// Whether the file is synced before it is named (a durable spool).
    let durable: Bool

    private let fd: Int32
    /// The file's temporary name where O_TMPFILE is not supported; nil for an unnamed file.
    private let temporaryName: String?
    private let system: SpoolSystem
    /// The size the writer declared, if it did: free space is rechecked only past it.
    private let expected: Int?

    private struct State {
        var written = 0
        var head: [UInt8] = []
        var failure: ProtocolError?
        var abandoned = false
        var closed = false
        var writebackFrom = 0
        var nextFreeCheck = SpoolPolicy.freeSpaceRecheck
    }

    private let state = Mutex(State())

    /// Opens a new spool file in `directory`: unnamed (O_TMPFILE) where the filesystem allows,
    /// else `<id>.bytes.tmp` created exclusively (mode 0600); either must be a regular file of
    /// ours. Throws `storage-failed` naming the directory.
    init(directory: SpoolDirectory, system: SpoolSystem, durable: Bool, expected: Int?) throws(ProtocolError) {
        let id = SpoolFile.newID()
        var fd = system.openTemporary(directory.fd)
        var temporaryName: String?
        if fd < 0 {
            let code = errno
            guard [EOPNOTSUPP, EISDIR, ENOENT, EINVAL].contains(code) else {
                throw ProtocolError(.storageFailed, "cannot create a file in \(directory.path): \(SystemError.describe(code))")
            }
            let name = id + SpoolFile.temporarySuffix
            fd = openat(directory.fd, name, O_RDWR | O_CREAT | O_EXCL | OwnFile.flags, 0o600)
            guard fd >= 0 else {
                throw ProtocolError(.storageFailed, "cannot create \(directory.path(of: name)): \(SystemError.current)")
            }
            temporaryName = name
        }
        if let problem = OwnFile.problem(fd) {
            close(fd)
            if let temporaryName { directory.remove(temporaryName) }
            throw ProtocolError(.storageFailed, "cannot use a new file in \(directory.path): \(problem)")
        }
        self.id = id
        self.directory = directory
        self.durable = durable
        self.fd = fd
        self.temporaryName = temporaryName
        self.system = system
        self.expected = expected
    }

    deinit { discard() }

    /// The file's final path, as messages name it.
    var path: String { directory.path(of: SpoolFile.name(of: id)) }

    /// The failure met so far, if any.
    var failure: ProtocolError? { state.withLock { $0.failure } }

    /// Whether the sink was dropped or aborted: what is still queued is not written.
    var isAbandoned: Bool { state.withLock { $0.abandoned } }

    /// Stops writing: the sink was dropped or aborted.
    func abandon() {
        state.withLock { $0.abandoned = true }
    }

    /// Writes all of `buffer` at the end of the file (blocking: runs on `SpoolIO`), starts
    /// writeback every `writebackStride` bytes of a durable spool, and rechecks free space
    /// every `freeSpaceRecheck` bytes past the declared size. Returns the bytes written, or
    /// nil after a failure (kept for `failure`), an abandon, or an earlier failure.
    func write(_ buffer: ByteBuffer) -> Int? {
        let start: Int? = state.withLock { state in
            state.failure == nil && !state.abandoned && !state.closed ? state.written : nil
        }
        guard let start else { return nil }
        let count = buffer.readableBytes
        guard count > 0 else { return 0 }
        guard start <= Int.max - count else { return fail("cannot write \(path): the file would exceed \(Int.max) bytes") }
        let code: Int32? = buffer.withUnsafeReadableBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let rest = UnsafeRawBufferPointer(rebasing: bytes[offset...])
                let written = system.write(fd, rest)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                // A write(2) that reports more than it was given, or nothing, is not trusted.
                guard written > 0, written <= rest.count else { return EIO }
                offset += written
            }
            return nil
        }
        if let code { return fail("cannot write \(path): \(SystemError.describe(code))") }
        let (writeback, checksFree) = state.withLock { state -> (Range<Int>?, Bool) in
            state.written = start + count
            if state.head.count < SpoolPolicy.headLength {
                buffer.withUnsafeReadableBytes { state.head.append(contentsOf: $0.prefix(SpoolPolicy.headLength - state.head.count)) }
            }
            var writeback: Range<Int>?
            if durable, state.written - state.writebackFrom >= SpoolPolicy.writebackStride {
                writeback = state.writebackFrom..<state.written
                state.writebackFrom = state.written
            }
            var checksFree = false
            if state.written >= state.nextFreeCheck {
                state.nextFreeCheck = state.written.addingReportingOverflow(SpoolPolicy.freeSpaceRecheck).partialValue
                checksFree = expected.map { state.written > $0 } ?? true
            }
            return (writeback, checksFree)
        }
        if let writeback {
            // Only a hint to start writing back: its failure shows in the fdatasync that follows.
            _ = pasteboard_sync_file_range_write(fd, Int64(writeback.lowerBound), Int64(writeback.count))
        }
        if checksFree {
            do {
                try SpoolFreeSpace.check(needed: 0, free: system.freeBytes(directory.fd), directory: directory.path)
            } catch {
                return fail(error.message)
            }
        }
        return count
    }

    /// Syncs (when durable) and names the file `<id>.bytes`, then syncs `data/` (when durable),
    /// in that order, so a record that names the file can never outlive its bytes or its name;
    /// closes it. Blocking: runs on `SpoolIO`. Returns the size and head, or throws
    /// `storage-failed` after removing whatever was written.
    func complete() throws(ProtocolError) -> (size: Int, head: [UInt8]) {
        let taken = state.withLock { state -> Result<(Int, [UInt8]), ProtocolError> in
            if let failure = state.failure { return .failure(failure) }
            if state.abandoned || state.closed { return .failure(ProtocolError(.storageFailed, "cannot write \(path): the write was abandoned")) }
            return .success((state.written, state.head))
        }
        guard case .success(let (size, head)) = taken else {
            discard()
            if case .failure(let failure) = taken { throw failure }
            throw ProtocolError(.internal, "unreachable")
        }
        let name = SpoolFile.name(of: id)
        if durable {
            guard fdatasync(fd) == 0 else { throw failAndDiscard("cannot sync \(path): \(SystemError.current)") }
            system.observe(.dataSync)
        }
        let linked: Int32
        if let temporaryName {
            linked = renameat(directory.fd, temporaryName, directory.fd, name)
        } else {
            linked = pasteboard_link_tmpfile(fd, directory.fd, name)
        }
        guard linked == 0 else { throw failAndDiscard("cannot name \(path): \(SystemError.current)") }
        system.observe(.link)
        state.withLock { $0.closed = true }
        close(fd)
        if durable {
            if let code = directory.sync() {
                directory.remove(name)
                throw ProtocolError(.storageFailed, "cannot sync \(directory.path): \(SystemError.describe(code))")
            }
            system.observe(.directorySync)
        }
        return (size, head)
    }

    /// Closes the file unless it was already, and removes its temporary name if it has one: an
    /// unnamed (O_TMPFILE) file then leaves nothing on disk.
    func discard() {
        let closes = state.withLock { state -> Bool in
            defer { state.closed = true }
            return !state.closed
        }
        guard closes else { return }
        close(fd)
        if let temporaryName { directory.remove(temporaryName) }
    }

    private func fail(_ message: String) -> Int? {
        state.withLock { state in
            if state.failure == nil { state.failure = ProtocolError(.storageFailed, message) }
        }
        return nil
    }

    private func failAndDiscard(_ message: String) -> ProtocolError {
        _ = fail(message)
        discard()
        return failure ?? ProtocolError(.storageFailed, message)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import NIOCore

/// A journal's bytes, readable at any offset a little at a time, so reading one needs memory
/// for one record, not for the whole file: its open file, or (in tests) bytes in memory.
protocol JournalBytes {
    /// How many bytes there are.
    var count: Int { get }
    /// The `length` bytes at `offset`, or nil when they cannot be read whole.
    func read(at offset: Int, length: Int) -> ByteBuffer?
}

/// The bytes of an open journal file, read with `pread`.
struct JournalFileBytes: JournalBytes {
    /// The open file.
    let fd: Int32
    /// Its size when opened.
    let count: Int

    func read(at offset: Int, length: Int) -> ByteBuffer? {
        guard offset >= 0, length >= 0, length <= count - offset else { return nil }
        var buffer = ByteBufferAllocator().buffer(capacity: length)
        let readCount = buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: length) { bytes in
            var done = 0
            while done < length {
                let got = pread(fd, bytes.baseAddress! + done, length - done, off_t(offset + done))
                if got < 0 && errno == EINTR { continue }
                if got <= 0 { break }
                done += got
            }
            return done
        }
        return readCount == length ? buffer : nil
    }
}

/// A journal's bytes held in memory.
struct JournalMemoryBytes: JournalBytes {
    let bytes: ByteBuffer

    var count: Int { bytes.readableBytes }

    func read(at offset: Int, length: Int) -> ByteBuffer? {
        guard offset >= 0, length >= 0, length <= count - offset else { return nil }
        return bytes.getSlice(at: bytes.readerIndex + offset, length: length)
    }
}

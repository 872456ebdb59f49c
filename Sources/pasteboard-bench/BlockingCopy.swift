#if canImport(Glibc)
import Glibc
#endif
import PasteboardSystem

/// The plain copies the large-transfer baselines are made of: a writer filling a descriptor
/// from one reused buffer, and a reader draining one, each on a thread of its own.
enum BlockingCopy {
    /// A connected pair of Unix stream sockets.
    static func socketPair() throws -> (Int32, Int32) {
        var fds: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0 else {
            throw BenchError("socketpair: \(SystemError.current)")
        }
        return (fds[0], fds[1])
    }

    /// Writes `total` bytes into `fd` in `chunk`-sized writes from one buffer, then closes it.
    static func fill(_ fd: Int32, total: Int, chunk: Int) {
        let buffer = [UInt8](repeating: 0x5a, count: chunk)
        var remaining = total
        buffer.withUnsafeBytes { bytes in
            while remaining > 0 {
                let written = write(fd, bytes.baseAddress, min(chunk, remaining))
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { break }
                remaining -= written
            }
        }
        close(fd)
    }

    /// Reads `fd` to its end in `chunk`-sized reads, closes it, and returns the byte count.
    static func drain(_ fd: Int32, chunk: Int) -> Int {
        var buffer = [UInt8](repeating: 0, count: chunk)
        var total = 0
        buffer.withUnsafeMutableBytes { bytes in
            while true {
                let count = read(fd, bytes.baseAddress, chunk)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                total += count
            }
        }
        close(fd)
        return total
    }

    /// Copies `input` to `output` until `input` ends (the relay's loop), as cat does: reads of
    /// `chunk` bytes, each written whole.
    static func relay(from input: Int32, to output: Int32, chunk: Int) {
        var buffer = [UInt8](repeating: 0, count: chunk)
        buffer.withUnsafeMutableBytes { bytes in
            while true {
                let count = read(input, bytes.baseAddress, chunk)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return }
                var offset = 0
                while offset < count {
                    let written = write(output, bytes.baseAddress! + offset, count - offset)
                    if written < 0, errno == EINTR { continue }
                    guard written > 0 else { return }
                    offset += written
                }
            }
        }
    }
}

/// A thread running one blocking closure; `join` waits for it. `@unchecked Sendable` is sound:
/// `body` never changes, and `thread` is written once, by `init` before anything else can see
/// the object, then only read by `join`.
final class BlockingThread: @unchecked Sendable {
    private var thread = pthread_t()
    private let body: () -> Void

    init(_ body: @escaping () -> Void) {
        self.body = body
        let box = Unmanaged.passRetained(self).toOpaque()
        pthread_create(&thread, nil, { argument in
            let owner = Unmanaged<BlockingThread>.fromOpaque(argument!).takeRetainedValue()
            owner.body()
            return nil
        }, box)
    }

    func join() {
        pthread_join(thread, nil)
    }
}

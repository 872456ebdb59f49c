#if canImport(Glibc)
import Glibc
#endif
import PasteboardSystem

/// A connected stream socket to the X server, read and written with plain system calls.
///
/// Why blocking with poll, not SwiftNIO or async: an X connection is one ordered byte stream
/// whose replies match requests by sequence number, and the selection protocols are strict
/// request → event → request sequences. A connection owned by one thread that writes a request
/// and polls for the answer with a deadline keeps those state machines plain sequential code,
/// needs no event loop in the daemon, and keeps this module free of NIO (it links only
/// Glibc and Synchronization). A wait sleeps until the server, a wakeup or a cancellation
/// token's descriptor has something (an idle connection makes no system call); only inside a
/// Swift task, whose cancellation has no descriptor, does it poll in short slices.
final class X11Socket {
    private(set) var fd: Int32
    /// Bytes received and not yet consumed: `storage[start..<end]`.
    private var storage = UnsafeMutableRawBufferPointer.allocate(byteCount: readSize, alignment: 8)
    private var start = 0
    private var end = 0
    /// How much one recv asks for at least.
    static let readSize = 256 * 1024

    /// How long one poll waits before checking for cancellation again, where cancellation has
    /// no descriptor to wake it (inside a Swift task).
    static let pollSlice: Duration = .milliseconds(50)

    init(fd: Int32) { self.fd = fd }

    deinit {
        close()
        storage.deallocate()
    }

    func close() {
        if fd >= 0 { _ = Glibc.close(fd) }
        fd = -1
    }

    /// Connects to a Unix socket (an abstract name or a file path).
    static func connect(unix address: UnixSocketAddress) throws(SocketError) -> X11Socket {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SocketError(errno: errno) }
        var storage = sockaddr_un()
        storage.sun_family = sa_family_t(AF_UNIX)
        let name: [UInt8]
        switch address {
        case let .path(path): name = Array(path.utf8) + [0]
        case let .abstract(path): name = [0] + Array(path.utf8)
        }
        let capacity = MemoryLayout.size(ofValue: storage.sun_path)
        guard name.count <= capacity else {
            _ = Glibc.close(fd)
            throw SocketError(errno: ENAMETOOLONG)
        }
        withUnsafeMutableBytes(of: &storage.sun_path) { raw in
            for (index, byte) in name.enumerated() { raw[index] = byte }
        }
        let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + name.count)
        let result = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, length) }
        }
        guard result == 0 else {
            let error = errno
            _ = Glibc.close(fd)
            throw SocketError(errno: error)
        }
        return X11Socket(fd: fd)
    }

    /// Connects over TCP to `host`:`port` (each address getaddrinfo gives, in order); also
    /// returns the peer's family and address bytes, which choose the Xauthority entry.
    static func connect(tcpHost host: String, port: UInt16) throws(SocketError) -> (X11Socket, family: UInt16, address: [UInt8]) {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_family = AF_UNSPEC
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else { throw SocketError(message: "cannot resolve \(host): \(String(cString: gai_strerror(status)))") }
        defer { freeaddrinfo(list) }
        var lastError = SocketError(errno: ECONNREFUSED)
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let info = entry {
            entry = info.pointee.ai_next
            let fd = socket(info.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { lastError = SocketError(errno: errno); continue }
            guard Glibc.connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 else {
                lastError = SocketError(errno: errno)
                _ = Glibc.close(fd)
                continue
            }
            var noDelay: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
            let (family, address) = peerAddress(info.pointee)
            return (X11Socket(fd: fd), family, address)
        }
        throw lastError
    }

    /// The Xauthority family and address of a TCP peer, as libxcb derives them: loopback
    /// addresses count as this machine (FamilyLocal with the host name).
    private static func peerAddress(_ info: addrinfo) -> (UInt16, [UInt8]) {
        guard let address = info.ai_addr else { return (Xauthority.familyLocal, Xauthority.hostname()) }
        if info.ai_family == AF_INET {
            let bytes = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { pointer in
                withUnsafeBytes(of: pointer.pointee.sin_addr) { Array($0) }
            }
            return bytes.first == 127 ? (Xauthority.familyLocal, Xauthority.hostname()) : (Xauthority.familyInternet, bytes)
        }
        if info.ai_family == AF_INET6 {
            let bytes = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                withUnsafeBytes(of: pointer.pointee.sin6_addr) { Array($0) }
            }
            let loopback = bytes == [UInt8](repeating: 0, count: 15) + [1]
            return loopback ? (Xauthority.familyLocal, Xauthority.hostname()) : (Xauthority.familyInternet6, bytes)
        }
        return (Xauthority.familyLocal, Xauthority.hostname())
    }

    /// Writes `head`, then the runs of `trailer` from where they lie, then `padding` zero bytes
    /// (0 to 3), gathered by one sendmsg (without SIGPIPE) as xlib's writev does: one request
    /// whose large data is written from its own storage rather than joined to the header first,
    /// and never a lone header that wakes the server for a request it cannot process yet.
    func write(_ head: [UInt8], _ trailer: [ByteRun], padding: Int) throws(X11Error) {
        precondition((0...3).contains(padding), "padding of \(padding) bytes")
        let zeros: [UInt8] = [0, 0, 0]
        let total = head.count + trailer.byteCount + padding
        var written = 0
        while written < total {
            let count = head.withUnsafeBytes { head in
                trailer.withUnsafeBuffers { trailer in
                    zeros.withUnsafeBytes { zeros in
                        var skip = written
                        var vectors: [iovec] = []
                        vectors.reserveCapacity(trailer.count + 2)
                        for part in [head] + trailer + [UnsafeRawBufferPointer(rebasing: zeros[0..<padding])] where part.count > 0 {
                            if skip >= part.count {
                                skip -= part.count
                                continue
                            }
                            vectors.append(iovec(iov_base: UnsafeMutableRawPointer(mutating: part.baseAddress! + skip), iov_len: part.count - skip))
                            skip = 0
                        }
                        return vectors.withUnsafeMutableBufferPointer { vectors in
                            var message = msghdr()
                            message.msg_iov = vectors.baseAddress
                            message.msg_iovlen = min(vectors.count, Self.maximumVectors)
                            return sendmsg(fd, &message, Int32(MSG_NOSIGNAL))
                        }
                    }
                }
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw .connectionClosed("write failed: \(SystemError.current)")
            }
            written += count
        }
    }

    /// The most pieces one sendmsg takes (Linux's IOV_MAX); a request of more is written in
    /// several calls.
    static let maximumVectors = 1024

    /// Writes all of `bytes` (without SIGPIPE).
    func write(_ bytes: [UInt8]) throws(X11Error) {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .connectionClosed("write failed: \(SystemError.current)")
            }
            offset += count
        }
    }

    /// Reads exactly `count` bytes, waiting until `deadline` (nil: no limit) unless cancelled.
    /// `what` names the awaited answer for the timeout error.
    func read(_ count: Int, deadline: X11Deadline?, cancellation: X11Cancellation?, what: @autoclosure () -> String) throws(X11Error) -> [UInt8] {
        try ensure(count, deadline: deadline, cancellation: cancellation, what: what())
        let result = [UInt8](unsafeUninitializedCapacity: count) { target, initialized in
            if count > 0 { UnsafeMutableRawBufferPointer(target).copyMemory(from: UnsafeRawBufferPointer(rebasing: storage[start..<start + count])) }
            initialized = count
        }
        start += count
        return result
    }

    /// Reads one packet of the server: 32 bytes, plus four times the u32 at offset 4 when
    /// `hasLength(firstByte)` says the packet has a length (replies and generic events); at most
    /// `maximumExtra` extra bytes, checked before any is read.
    func readPacket(maximumExtra: Int, hasLength: (UInt8) -> Bool, deadline: X11Deadline?, cancellation: X11Cancellation?, what: @autoclosure () -> String) throws(X11Error) -> [UInt8] {
        try ensure(32, deadline: deadline, cancellation: cancellation, what: what())
        var total = 32
        if hasLength(storage[start]) {
            var units = 0
            for index in 0..<4 { units |= Int(storage[start + 4 + index]) << (8 * index) }
            guard units <= maximumExtra / 4 else { throw .malformedFromServer("a packet of \(units) four-byte units (the most accepted: \(maximumExtra / 4))") }
            total += units * 4
        }
        return try read(total, deadline: deadline, cancellation: cancellation, what: what())
    }

    private func ensure(_ count: Int, deadline: X11Deadline?, cancellation: X11Cancellation?, what: @autoclosure () -> String) throws(X11Error) {
        while end - start < count {
            try fill(wanting: count, deadline: deadline, cancellation: cancellation, what: what())
        }
    }

    /// How long the next poll may wait, in poll's milliseconds (-1: until something arrives):
    /// until `deadline` (nil: none) when `cancellation` wakes the poll through its descriptor,
    /// else a slice (`pollSlice`) at most, after which the caller checks for cancellation
    /// again (inside a Swift task, whose cancellation has no descriptor, too). Nil once the
    /// deadline passed. Any Duration converts without trapping.
    private static func pollTimeout(until deadline: ContinuousClock.Instant?, cancellation: X11Cancellation?) -> Int32? {
        let wakesAtCancel = (cancellation?.readFD ?? -1) >= 0 && withUnsafeCurrentTask { $0 == nil }
        var wait: Duration? = wakesAtCancel ? nil : pollSlice
        if let deadline {
            let left = deadline - .now
            guard left > .zero else { return nil }
            wait = min(wait ?? left, left)
        }
        guard let wait else { return -1 }
        let (seconds, attoseconds) = wait.components
        guard seconds < Int64(Int32.max) / 1000 else { return Int32.max }
        return Int32(max(1, seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000))
    }

    /// Polls `descriptors` for readability for at most `milliseconds` (-1: no limit): true when
    /// one is ready; false when the time passed or a signal interrupted (the caller looks at its
    /// deadline and cancellation again). The descriptors are the caller's memory (its stack), so
    /// the wait for every read of server bytes allocates nothing.
    private static func pollReady(_ descriptors: UnsafeMutableBufferPointer<pollfd>, for milliseconds: Int32) throws(X11Error) -> Bool {
        let ready = poll(descriptors.baseAddress, nfds_t(descriptors.count), milliseconds)
        if ready < 0 {
            if errno == EINTR { return false }
            throw .connectionClosed("poll failed: \(SystemError.current)")
        }
        return ready > 0
    }

    /// What ended `waitReadable`.
    enum Readiness { case socket, wakeup, deadline }

    /// Sleeps until the server sent bytes (or some are buffered), `wakeup` was signalled,
    /// `deadline` (nil: none) passed or `cancellation` came (which throws).
    func waitReadable(until deadline: ContinuousClock.Instant?, wakeup: X11Wakeup?, cancellation: X11Cancellation?) throws(X11Error) -> Readiness {
        if start < end { return .socket }
        while true {
            if cancellation?.isCancelled == true || Task.isCancelled { throw .cancelled }
            guard let timeout = Self.pollTimeout(until: deadline, cancellation: cancellation) else { return .deadline }
            // The socket, the wakeup's pipe and the cancellation's (-1 without one, which poll skips).
            let readiness = try withUnsafeTemporaryAllocation(of: pollfd.self, capacity: 3) { descriptors throws(X11Error) -> Readiness? in
                descriptors[0] = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                descriptors[1] = pollfd(fd: wakeup?.readFD ?? -1, events: Int16(POLLIN), revents: 0)
                descriptors[2] = pollfd(fd: cancellation?.readFD ?? -1, events: Int16(POLLIN), revents: 0)
                guard try Self.pollReady(descriptors, for: timeout), descriptors[2].revents == 0 else { return nil }
                return descriptors[1].revents != 0 ? .wakeup : .socket
            }
            guard let readiness else { continue }
            if readiness == .wakeup, let wakeup {
                wakeup.drain()
                return .wakeup
            }
            return .socket
        }
    }

    /// Whether bytes are already buffered (so an event may be read without waiting).
    var hasBufferedBytes: Bool { start < end }

    private func fill(wanting count: Int, deadline: X11Deadline?, cancellation: X11Cancellation?, what: String) throws(X11Error) {
        while true {
            if cancellation?.isCancelled == true || Task.isCancelled { throw .cancelled }
            guard let timeout = Self.pollTimeout(until: deadline?.instant, cancellation: cancellation) else {
                throw .timedOut(what: what, seconds: deadline?.seconds ?? 0)  // only a deadline passes
            }
            let ready = try withUnsafeTemporaryAllocation(of: pollfd.self, capacity: 2) { descriptors throws(X11Error) -> Bool in
                descriptors[0] = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                descriptors[1] = pollfd(fd: cancellation?.readFD ?? -1, events: Int16(POLLIN), revents: 0)
                return try Self.pollReady(descriptors, for: timeout) && descriptors[1].revents == 0
            }
            if ready { break }
        }
        // Move what is unread to the front, and grow the storage to hold `count` bytes and a read.
        let unread = end - start
        if start > 0 {
            if unread > 0, let base = storage.baseAddress { memmove(base, base + start, unread) }
            start = 0
            end = unread
        }
        let needed = max(count, unread + Self.readSize)
        if storage.count < needed {
            let grown = UnsafeMutableRawBufferPointer.allocate(byteCount: needed, alignment: 8)
            if unread > 0 { grown.copyMemory(from: UnsafeRawBufferPointer(rebasing: storage[0..<unread])) }
            storage.deallocate()
            storage = grown
        }
        let received = recv(fd, storage.baseAddress! + end, storage.count - end, 0)
        let error = errno
        if received == 0 { throw .connectionClosed("the X server closed the connection") }
        if received < 0 {
            if error == EINTR || error == EAGAIN { return }
            throw .connectionClosed("read failed: \(SystemError.describe(error))")
        }
        end += received
    }
}

/// When a wait ends, and the bound it came from (for the error message).
public struct X11Deadline: Sendable {
    public let instant: ContinuousClock.Instant
    public let seconds: Double

    public init(after timeout: Duration) {
        instant = .now + timeout
        seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
    }

    /// The earlier of this deadline and `other` (nil: this one): a wait for one answer within
    /// the bound of a whole transfer.
    public func bounded(by other: X11Deadline?) -> X11Deadline {
        guard let other, other.instant < instant else { return self }
        return other
    }
}

/// Why a socket could not be connected.
struct SocketError: Error {
    let message: String
    init(errno: Int32) { message = SystemError.describe(errno) }
    init(message: String) { self.message = message }
}

import CPasteboardSystem
#if canImport(Glibc)
import Glibc
#endif

/// The client's Unix socket to the compositor: bytes with descriptors attached, both ways.
///
/// Plain blocking system calls through CPasteboardSystem's SCM_RIGHTS helpers rather than
/// SwiftNIO: a Wayland client exchanges a few small messages and needs several descriptors per
/// message in order, which NIO's channel pipeline does not carry; this keeps the module free of
/// event-loop threads and easy to drive from tests.
final class WaylandSocket: Sendable {
    let descriptor: Int32

    /// Connects to the socket at `path`.
    init(path: String) throws(WaylandError) {
        let fd = pasteboard_unix_socket(path, -1)
        guard fd >= 0 else { throw .cannotConnect(path: path, errno: errno) }
        descriptor = fd
    }

    /// Wraps a connected descriptor (a socketpair end in tests); closed with the socket.
    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// Sends all of `bytes` with `descriptors` attached to the first part sent.
    func send(_ bytes: [UInt8], descriptors: [Int32]) throws(WaylandError) {
        guard descriptors.count <= Int(PASTEBOARD_MAX_DESCRIPTORS) else {
            throw .malformed(.tooManyDescriptors(count: descriptors.count))
        }
        var offset = 0
        var attached = descriptors
        while offset < bytes.count || !attached.isEmpty {
            let sent = bytes.withUnsafeBytes { raw in
                attached.withUnsafeBufferPointer { fds in
                    pasteboard_send_descriptors(descriptor, raw.baseAddress! + offset, raw.count - offset, fds.baseAddress, fds.count)
                }
            }
            guard sent >= 0 else { throw .connectionLost(errno: errno) }
            offset += sent
            attached = []
        }
    }

    /// Waits up to `timeoutMilliseconds` (-1: no limit) for bytes; nil on timeout, an empty
    /// read at end of stream.
    func receive(timeoutMilliseconds: Int32) throws(WaylandError) -> (bytes: [UInt8], descriptors: [Int32])? {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let ready = poll(&poller, 1, timeoutMilliseconds)
        if ready < 0 {
            if errno == EINTR { return nil }
            throw .connectionLost(errno: errno)
        }
        if ready == 0 { return nil }
        var bytes = [UInt8](repeating: 0, count: 4096)
        var fds = [Int32](repeating: -1, count: Int(PASTEBOARD_MAX_DESCRIPTORS))
        var fdCount = 0
        let received = bytes.withUnsafeMutableBytes { raw in
            fds.withUnsafeMutableBufferPointer { fdBuffer in
                pasteboard_receive_descriptors(descriptor, raw.baseAddress, raw.count, fdBuffer.baseAddress, fdBuffer.count, &fdCount, Int32(MSG_DONTWAIT))
            }
        }
        if received < 0 {
            if errno == EAGAIN || errno == EINTR { return nil }
            throw .connectionLost(errno: errno)
        }
        return (Array(bytes.prefix(received)), Array(fds.prefix(fdCount)))
    }

    /// Wakes a thread blocked in ``receive(timeoutMilliseconds:)`` and ends both directions.
    func shutDown() {
        shutdown(descriptor, Int32(SHUT_RDWR))
    }
}

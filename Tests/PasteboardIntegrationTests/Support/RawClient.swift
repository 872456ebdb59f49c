import CPasteboardSystem
import Foundation
import Glibc
import PasteboardSystem

/// A blocking Unix-socket client that speaks frames by hand, for tests of what the daemon does
/// with exact (or broken) bytes.
final class RawClient {
    private(set) var fd: Int32

    struct Frame: Equatable {
        var kind: UInt8
        var flags: UInt8
        var requestID: UInt32
        var payload: [UInt8]
        var json: [String: Any]? { try? JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any] }
        var op: String? { json?["op"] as? String }
        static func == (a: Frame, b: Frame) -> Bool { a.kind == b.kind && a.flags == b.flags && a.requestID == b.requestID && a.payload == b.payload }
    }

    struct Failure: Error, CustomStringConvertible { let description: String }

    init(socketPath: String) throws {
        fd = pasteboard_unix_socket(socketPath, -1)
        guard fd >= 0 else { throw Failure(description: "connect: \(SystemError.current)") }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    func close() {
        if fd >= 0 { Glibc.close(fd); fd = -1 }
    }

    deinit { close() }

    func sendRaw(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw Failure(description: "send: \(SystemError.current)") }
            offset += n
        }
    }

    /// A frame's bytes, header and payload.
    static func frame(kind: UInt8, flags: UInt8 = 0, requestID: UInt32, payload: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = []
        let length = UInt32(6 + payload.count)
        bytes += withUnsafeBytes(of: length.bigEndian, Array.init)
        bytes += [kind, flags]
        bytes += withUnsafeBytes(of: requestID.bigEndian, Array.init)
        bytes += payload
        return bytes
    }

    /// A message frame's bytes.
    static func message(_ object: [String: Any], requestID: UInt32) throws -> [UInt8] {
        frame(kind: 1, requestID: requestID, payload: Array(try JSONSerialization.data(withJSONObject: object)))
    }

    /// The `hello` this client sends.
    static func helloMessage(version: Int = 1) throws -> [UInt8] {
        try message(["op": "hello", "version": version, "client": "raw-test", "pid": Int(getpid())], requestID: 0)
    }

    func send(kind: UInt8, flags: UInt8 = 0, requestID: UInt32, payload: [UInt8]) throws {
        try sendRaw(Self.frame(kind: kind, flags: flags, requestID: requestID, payload: payload))
    }

    func sendMessage(_ object: [String: Any], requestID: UInt32) throws {
        try sendRaw(Self.message(object, requestID: requestID))
    }

    func hello(version: Int = 1) throws -> Frame {
        try sendRaw(Self.helloMessage(version: version))
        guard let frame = try receive() else { throw Failure(description: "closed during handshake") }
        return frame
    }

    /// Reads exactly `count` bytes; nil on orderly close before any byte.
    private func readExactly(_ count: Int) throws -> [UInt8]? {
        var result = [UInt8](repeating: 0, count: count)
        var offset = 0
        while offset < count {
            let n = result[offset...].withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n == 0 { if offset == 0 { return nil }; throw Failure(description: "closed mid-frame") }
            if n < 0 {
                if errno == EINTR { continue }
                if errno == ECONNRESET { return nil }
                throw Failure(description: "recv: \(SystemError.current)")
            }
            offset += n
        }
        return result
    }

    /// The next frame, or nil when the daemon closed the connection.
    func receive() throws -> Frame? {
        guard let header = try readExactly(10) else { return nil }
        let length = Int(UInt32(header[0]) << 24 | UInt32(header[1]) << 16 | UInt32(header[2]) << 8 | UInt32(header[3]))
        let id = UInt32(header[6]) << 24 | UInt32(header[7]) << 16 | UInt32(header[8]) << 8 | UInt32(header[9])
        let payload = length > 6 ? (try readExactly(length - 6) ?? []) : []
        return Frame(kind: header[4], flags: header[5], requestID: id, payload: payload)
    }

    /// Reads frames until the daemon closes; returns them.
    /// The next frame that is not a `progress` message (progress interleaves with a read's data).
    func receiveSkippingProgress() throws -> Frame? {
        while let frame = try receive() {
            if frame.kind == 1, frame.op == "progress" { continue }
            return frame
        }
        return nil
    }

    func drainUntilClosed() throws -> [Frame] {
        var frames: [Frame] = []
        while let frame = try receive() { frames.append(frame) }
        return frames
    }
}

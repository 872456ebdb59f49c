import Foundation
import Glibc
@testable import PasteboardDaemon
import PasteboardSystem
import XCTest

/// Which descriptors systemd's variables pass, and which of them the daemon can serve.
final class ActivatedSocketTests: XCTestCase {
    private var directory: String!
    private var descriptors: [Int32] = []

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("pbsock-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        for fd in descriptors { close(fd) }
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// A Unix socket of `type` bound at `name` in the test's directory, or with nil, to an
    /// abstract name the kernel picks (autobind).
    private func unixSocket(_ type: Int32, boundAt name: String?, listening: Bool) throws -> Int32 {
        let fd = socket(AF_UNIX, type, 0)
        XCTAssertGreaterThanOrEqual(fd, 0)
        descriptors.append(fd)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var length = socklen_t(MemoryLayout<sa_family_t>.size)
        if let name {
            let path = directory + "/" + name
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
            }
            length = socklen_t(MemoryLayout<sockaddr_un>.size)
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        XCTAssertEqual(bound, 0, SystemError.current)
        if listening { XCTAssertEqual(listen(fd, 8), 0) }
        return fd
    }

    private func reason(_ fd: Int32) -> String {
        do {
            _ = try ActivatedSocket.adopt(fd, name: nil, passedCount: 1)
            return "adopted"
        } catch {
            return "\(error)"
        }
    }

    func testOnlyVariablesForThisProcessPassDescriptors() throws {
        XCTAssertEqual(try ActivatedSocket.passedCount(environment: [:], pid: 42), 0)
        XCTAssertEqual(try ActivatedSocket.passedCount(environment: ["LISTEN_PID": "41", "LISTEN_FDS": "1"], pid: 42), 0)
        XCTAssertEqual(try ActivatedSocket.passedCount(environment: ["LISTEN_PID": "42", "LISTEN_FDS": "2"], pid: 42), 2)
        XCTAssertThrowsError(try ActivatedSocket.passedCount(environment: ["LISTEN_PID": "42", "LISTEN_FDS": "x"], pid: 42)) { error in
            XCTAssertEqual("\(error)", "cannot serve the socket systemd passed (LISTEN_FDS): LISTEN_FDS is 'x', not a number of descriptors")
        }
    }

    func testAListeningUnixStreamSocketIsServedUnderItsOwnPath() throws {
        let fd = try unixSocket(Int32(SOCK_STREAM.rawValue), boundAt: "pasteboardd.sock", listening: true)
        let socket = try ActivatedSocket.adopt(fd, name: "pasteboardd.socket", passedCount: 1)
        XCTAssertEqual(socket.path, directory + "/pasteboardd.sock")
        XCTAssertEqual(socket.name, "pasteboardd.socket")
    }

    func testOtherDescriptorsAreRefusedSayingWhy() throws {
        let prefix = "cannot serve the socket systemd passed (LISTEN_FDS): "
        var pipeEnds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&pipeEnds), 0)
        descriptors += pipeEnds
        XCTAssertEqual(reason(pipeEnds[0]), prefix + "descriptor \(pipeEnds[0]) is not a socket but a pipe")

        let datagram = try unixSocket(Int32(SOCK_DGRAM.rawValue), boundAt: "d.sock", listening: false)
        XCTAssertEqual(reason(datagram), prefix + "descriptor \(datagram) is not a stream socket (use ListenStream=, not ListenDatagram= or ListenSequentialPacket=)")

        let idle = try unixSocket(Int32(SOCK_STREAM.rawValue), boundAt: "idle.sock", listening: false)
        XCTAssertEqual(reason(idle), prefix + "descriptor \(idle) is not listening")

        let unnamed = try unixSocket(Int32(SOCK_STREAM.rawValue), boundAt: nil, listening: true)
        XCTAssertTrue(reason(unnamed).hasPrefix(prefix + "descriptor \(unnamed) has no path"), reason(unnamed))

        let inet = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        descriptors.append(inet)
        XCTAssertEqual(reason(inet), prefix + "descriptor \(inet) is not a Unix-domain socket (ListenStream= must be a path)")

        XCTAssertTrue(reason(9999).hasPrefix(prefix + "descriptor 9999 is not open"), reason(9999))
    }
}

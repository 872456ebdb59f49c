@testable import PasteboardWayland
import Glibc
import XCTest

/// The source side of the data-control state machine, driven by scripted compositor messages
/// for both protocols (ext only here: Debian's sway offers wlr alone): creating and setting a
/// source, a send with its descriptor, a send for a type not offered, cancelled, and the checks
/// on what we offer.
final class DataSourceSessionTests: XCTestCase {
    private let manager: UInt32 = 5, device: UInt32 = 6, source: UInt32 = 8

    func testCreatingASourceOffersEachTypeThenSetsTheSelection() throws {
        for p in DataControlProtocol.allCases {
            var compositor = try ready(p)
            let id = try compositor.session.createSource(offering: ["text/plain;charset=utf-8", "text/plain", "text/plain", "image/png"], for: .clipboard)
            XCTAssertEqual(id, source)
            XCTAssertEqual(compositor.requests(), [
                WireMessage(objectID: manager, opcode: 0, arguments: [.newID(source)]),
                WireMessage(objectID: source, opcode: 0, arguments: [.string("text/plain;charset=utf-8")]),
                WireMessage(objectID: source, opcode: 0, arguments: [.string("text/plain")]),
                WireMessage(objectID: source, opcode: 0, arguments: [.string("image/png")]),
                WireMessage(objectID: device, opcode: 0, arguments: [.object(source)]),
            ], "\(p)")
            XCTAssertEqual(compositor.session.sourceMIMETypes(source), ["text/plain;charset=utf-8", "text/plain", "image/png"])

            let primary = try compositor.session.createSource(offering: ["UTF8_STRING"], for: .primary)
            XCTAssertEqual(compositor.requests().last, WireMessage(objectID: device, opcode: 2, arguments: [.object(primary)]), "\(p)")
        }
    }

    func testASendHandsOnItsDescriptor() throws {
        for p in DataControlProtocol.allCases {
            var compositor = try ready(p)
            _ = try compositor.session.createSource(offering: ["text/plain", "image/png"], for: .clipboard)
            let (readEnd, writeEnd) = try pipe()
            defer { close(readEnd) }
            try compositor.send(source, 0, [.string("image/png"), .fd(writeEnd)], descriptors: [writeEnd])
            XCTAssertEqual(compositor.session.sourceEvents, [.send(source: source, mimeType: "image/png", descriptor: writeEnd)], "\(p)")
            XCTAssertNotEqual(fcntl(writeEnd, F_GETFD), -1, "the descriptor is the caller's now, still open")
            close(writeEnd)
        }
    }

    func testASendForATypeNotOfferedClosesTheDescriptorUnwritten() throws {
        for p in DataControlProtocol.allCases {
            var compositor = try ready(p)
            _ = try compositor.session.createSource(offering: ["text/plain"], for: .clipboard)
            let (readEnd, writeEnd) = try pipe()
            defer { close(readEnd) }
            try compositor.send(source, 0, [.string("image/png"), .fd(writeEnd)], descriptors: [writeEnd])
            XCTAssertEqual(compositor.session.sourceEvents, [.sendRefused(source: source, mimeType: "image/png")], "\(p)")
            XCTAssertEqual(readNow(readEnd), 0, "end of file at once, no byte: the write end was closed")
        }
    }

    func testCancelledDestroysTheSourceAndLaterSendsAreRefused() throws {
        for p in DataControlProtocol.allCases {
            var compositor = try ready(p)
            _ = try compositor.session.createSource(offering: ["text/plain"], for: .clipboard)
            _ = compositor.requests()
            try compositor.send(source, 1)
            XCTAssertEqual(compositor.session.sourceEvents, [.cancelled(source: source)], "\(p)")
            XCTAssertEqual(compositor.requests(), [WireMessage(objectID: source, opcode: 1)], "destroyed, as the protocol asks")
            XCTAssertNil(compositor.session.sourceMIMETypes(source))

            // A send that crossed the destroy: still decoded (until delete_id), closed unwritten.
            compositor.session.sourceEvents = []
            let (readEnd, writeEnd) = try pipe()
            defer { close(readEnd) }
            try compositor.send(source, 0, [.string("text/plain"), .fd(writeEnd)], descriptors: [writeEnd])
            XCTAssertEqual(compositor.session.sourceEvents, [.sendRefused(source: source, mimeType: "text/plain")])
            XCTAssertEqual(readNow(readEnd), 0)

            // A second cancelled, and one for a source we destroyed ourselves, change nothing.
            compositor.session.sourceEvents = []
            try compositor.send(source, 1)
            let other = try compositor.session.createSource(offering: ["text/plain"], for: .clipboard)
            XCTAssertTrue(compositor.session.destroySource(other))
            XCTAssertFalse(compositor.session.destroySource(other))
            XCTAssertEqual(compositor.requests().last, WireMessage(objectID: other, opcode: 1))
            try compositor.send(other, 1)
            XCTAssertEqual(compositor.session.sourceEvents, [])
            XCTAssertEqual(compositor.requests(), [])

            // delete_id frees the id: the next source gets it again.
            try compositor.send(1, 1, [.uint(source)])
            XCTAssertEqual(try compositor.session.createSource(offering: ["a/b"], for: .clipboard), source)
        }
    }

    func testWhatWeOfferIsCheckedBeforeAnythingIsQueued() throws {
        var compositor = try ready(.ext)
        XCTAssertThrowsError(try compositor.session.createSource(offering: [], for: .clipboard)) {
            XCTAssertEqual($0 as? WaylandError, .noMIMETypes)
        }
        XCTAssertThrowsError(try compositor.session.createSource(offering: ["text/plain", ""], for: .clipboard)) {
            XCTAssertEqual($0 as? WaylandError, .invalidMIMEType(""))
        }
        let long = String(repeating: "x", count: SourceLimits.maxMIMETypeLength + 1)
        XCTAssertThrowsError(try compositor.session.createSource(offering: [long], for: .clipboard)) {
            XCTAssertEqual($0 as? WaylandError, .invalidMIMEType(long))
            XCTAssertTrue("\($0)".contains("longer than 1024 bytes"), "\($0)")
        }
        XCTAssertThrowsError(try compositor.session.createSource(offering: ["a\u{0}b"], for: .clipboard))
        let many = (0...SourceLimits.maxMIMETypes).map { "x/\($0)" }
        XCTAssertThrowsError(try compositor.session.createSource(offering: many, for: .clipboard))
        XCTAssertEqual(compositor.requests(), [], "nothing queued for a refused source")

        var old = try ScriptedCompositor()
        try old.announce([(1, "wl_seat", 8), (2, "zwlr_data_control_manager_v1", 1)])
        XCTAssertThrowsError(try old.session.createSource(offering: ["text/plain"], for: .primary)) {
            XCTAssertEqual($0 as? WaylandError, .primarySelectionUnsupported)
        }

        let early = try ScriptedCompositor()
        var session = early.session
        XCTAssertThrowsError(try session.createSource(offering: ["text/plain"], for: .clipboard)) {
            XCTAssertEqual($0 as? WaylandError, .notReady)
        }
    }

    func testASendWithoutAMIMETypeIsAnErrorAndItsDescriptorIsClosed() throws {
        var compositor = try ready(.wlr)
        _ = try compositor.session.createSource(offering: ["text/plain"], for: .clipboard)
        let (readEnd, writeEnd) = try pipe()
        defer { close(readEnd) }
        XCTAssertThrowsError(try compositor.send(source, 0, [.string(nil), .fd(writeEnd)], descriptors: [writeEnd])) {
            XCTAssertEqual($0 as? WaylandError, .unexpectedEvent(objectID: source, opcode: 0))
        }
        XCTAssertEqual(readNow(readEnd), 0)
    }

    func testClearingASelectionSetsNoSource() throws {
        var compositor = try ready(.ext)
        try compositor.session.clearSelection(.primary)
        XCTAssertEqual(compositor.requests(), [WireMessage(objectID: device, opcode: 2, arguments: [.object(0)])])
    }

    // MARK: - Helpers

    /// A session bound to `protocol`, past set-up, with no requests pending.
    private func ready(_ protocol: DataControlProtocol) throws -> ScriptedCompositor {
        var compositor = try ScriptedCompositor()
        try compositor.announce([(1, "wl_seat", 8), (2, `protocol`.managerInterface, `protocol`.maxVersion)])
        try compositor.send(7, 0, [.uint(0)])
        XCTAssertEqual(compositor.session.phase, .ready)
        _ = compositor.requests()
        return compositor
    }

    private func pipe() throws -> (Int32, Int32) {
        var fds: [Int32] = [-1, -1]
        guard Glibc.pipe(&fds) == 0 else { throw POSIXError(.EMFILE) }
        return (fds[0], fds[1])
    }

    /// What a read returns without waiting: 0 at end of file, -1 when it would block.
    private func readNow(_ descriptor: Int32) -> Int {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, 1000) == 1 else { return -1 }
        var byte: UInt8 = 0
        return Glibc.read(descriptor, &byte, 1)
    }
}

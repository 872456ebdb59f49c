import NIOCore
@testable import Pasteboard
import PasteboardProtocol
import PasteboardTypes
import XCTest

/// The client's protocol state that `BlockingConnection` and `PasteboardConnection` both drive,
/// tested with frames made here: no daemon, no socket.
final class ClientStateTests: XCTestCase {
    private let window = ProtocolLimits.minimumWindow

    private func welcome(version: Int = ProtocolVersion.current, window: Int? = nil, handoff: HandoffOffer? = nil) -> Welcome {
        Welcome(version: version, daemon: "pasteboardd test", pid: 4242, maxFrameLength: ProtocolLimits.minimumMaxFrameLength,
                window: window ?? self.window, handoff: handoff)
    }

    private func header(handoff: Bool? = nil, size: Int? = 10) -> RepresentationHeader {
        RepresentationHeader(changeCount: 3, item: 0, index: 1, type: "public.utf8-plain-text", size: size,
                             mimeType: "text/plain", handoff: handoff)
    }

    private func bytes(_ count: Int) -> ByteBuffer {
        ByteBuffer(repeating: UInt8(ascii: "x"), count: count)
    }

    // MARK: - Handshake

    func testTheWelcomeIsAccepted() throws {
        let frame = Frame.message(.welcome(welcome()), requestID: 0)
        XCTAssertEqual(try DaemonHandshake.welcome(from: frame).pid, 4242)
    }

    func testAnotherProtocolVersionIsRefusedNamingBoth() {
        let frame = Frame.message(.welcome(welcome(version: ProtocolVersion.current + 1)), requestID: 0)
        XCTAssertThrowsError(try DaemonHandshake.welcome(from: frame)) { error in
            XCTAssertEqual((error as? PasteboardError)?.code, .versionMismatch)
            XCTAssertTrue("\(error)".contains("version \(ProtocolVersion.current + 1), this client \(ProtocolVersion.current)"), "\(error)")
        }
    }

    func testAWindowOutsideTheLimitsIsRefusedBeforeItSizesAnything() {
        let frame = Frame.message(.welcome(welcome(window: 1)), requestID: 0)
        XCTAssertThrowsError(try DaemonHandshake.welcome(from: frame)) { error in
            XCTAssertEqual((error as? PasteboardError)?.code, .malformedMessage)
        }
    }

    func testARefusalIsTheDaemonsOwnError() {
        let frame = Frame.message(.error(ProtocolError(.limitReached, "pasteboardd serves at most 2 connections")), requestID: 0)
        XCTAssertThrowsError(try DaemonHandshake.welcome(from: frame)) { error in
            XCTAssertEqual((error as? PasteboardError)?.code, .limitReached)
            XCTAssertEqual("\(error)", "pasteboardd serves at most 2 connections")
        }
    }

    func testAnythingElseIsALostConnection() {
        for frame in [Frame.message(.ok(OK()), requestID: 0), .message(.welcome(welcome()), requestID: 1), .data(bytes(3), requestID: 0)] {
            XCTAssertThrowsError(try DaemonHandshake.welcome(from: frame)) { error in
                guard case PasteboardError.connectionLost(let reason)? = error as? PasteboardError else {
                    return XCTFail("\(error)")
                }
                XCTAssertEqual(reason, "the daemon did not answer hello with welcome")
            }
        }
    }

    func testHelloNamesTheClientOnTheHandshakesRequest() throws {
        let frame = DaemonHandshake.hello(client: "pb", app: "notes")
        XCTAssertEqual(frame.requestID, 0)
        guard case .hello(let hello) = try frame.decodeMessage() else { return XCTFail("not a hello") }
        XCTAssertEqual(hello.client, "pb")
        XCTAssertEqual(hello.app, "notes")
        XCTAssertEqual(hello.pid, getpid())
    }

    // MARK: - Hand-off attachment

    func testAHandoffSocketThatCannotBeAttachedIsTriedOnce() {
        var attachment = HandoffAttachment.untried
        var tries = 0
        let offered = welcome(handoff: HandoffOffer(path: "/nonexistent/handoff", token: String(repeating: "a", count: 32)))
        for _ in 0..<3 {
            XCTAssertNil(attachment.attach(offeredBy: offered) { offer, pid in
                tries += 1
                XCTAssertEqual(offer.path, "/nonexistent/handoff")
                XCTAssertEqual(pid, 4242, "the socket's peer must be the daemon that welcomed us")
                return nil
            })
        }
        XCTAssertEqual(tries, 1)
        XCTAssertNil(attachment.channel)
    }

    func testNoOfferMeansNoConnectAndNoChannel() {
        var attachment = HandoffAttachment.untried
        XCTAssertNil(attachment.channel, "reading the channel tries nothing")
        XCTAssertNil(attachment.attach(offeredBy: welcome()) { _, _ in
            XCTFail("nothing was offered")
            return nil
        })
    }

    // MARK: - Read exchange

    func testARequestAsksForBothHandoffKindsOrNeither() {
        let asking = ReadExchange.request(.pasteboard("general"), item: 2, accept: [.png, .plainText], asksHandoff: true)
        XCTAssertEqual(asking.pasteboard, "general")
        XCTAssertNil(asking.session)
        XCTAssertEqual(asking.item, 2)
        XCTAssertEqual(asking.accept, ["public.png", "public.plain-text"])
        XCTAssertEqual(asking.handoff, true)
        XCTAssertEqual(asking.handoffFile, true)
        XCTAssertNil(asking.openInPlace)
        let plain = ReadExchange.request(.session(7), item: 0, accept: [], openInPlace: true, asksHandoff: false)
        XCTAssertEqual(plain.session, 7)
        XCTAssertNil(plain.pasteboard)
        XCTAssertNil(plain.handoff)
        XCTAssertNil(plain.handoffFile)
        XCTAssertEqual(plain.openInPlace, true)
    }

    func testBytesArriveInOrderAndCreditGoesBackAsHalfTheWindowIsConsumed() throws {
        var exchange = ReadExchange(window: window)
        guard case .representation(let chosen) = try exchange.take(.message(.representation(header()), requestID: 5), handoff: nil) else {
            return XCTFail("the choice comes first")
        }
        XCTAssertEqual(chosen.type, "public.utf8-plain-text")
        guard case .data(let first, let credit) = try exchange.take(.data(bytes(window / 2 - 1), requestID: 5), handoff: nil) else {
            return XCTFail("data")
        }
        XCTAssertEqual(first?.readableBytes, window / 2 - 1)
        XCTAssertNil(credit, "no credit before half the window is consumed")
        guard case .data(_, let granted) = try exchange.take(.data(bytes(1), requestID: 5), handoff: nil) else { return XCTFail("data") }
        XCTAssertEqual(granted, window / 2)
        guard case .finished(let last, let header) = try exchange.take(.data(bytes(0), requestID: 5, end: true), handoff: nil) else {
            return XCTFail("the end finishes the load")
        }
        XCTAssertNil(last, "an empty last frame passes no bytes")
        XCTAssertEqual(header, chosen)
    }

    func testDataBeforeTheChoiceBreaksTheProtocol() {
        var exchange = ReadExchange(window: window)
        XCTAssertThrowsError(try exchange.take(.data(bytes(4), requestID: 5), handoff: nil)) { error in
            XCTAssertEqual("\(error)", "lost the connection to pasteboardd: the daemon sent data before naming the representation")
        }
    }

    func testDataBeyondTheCreditIsRefused() throws {
        var exchange = ReadExchange(window: window)
        _ = try exchange.take(.message(.representation(header()), requestID: 5), handoff: nil)
        XCTAssertThrowsError(try exchange.take(.data(bytes(window + 1), requestID: 5), handoff: nil)) { error in
            XCTAssertEqual((error as? ProtocolError)?.code, .flowControl)
        }
    }

    func testAHandoffWithoutASocketBreaksTheProtocol() {
        var exchange = ReadExchange(window: window)
        XCTAssertThrowsError(try exchange.take(.message(.representation(header(handoff: true)), requestID: 5), handoff: nil)) { error in
            XCTAssertEqual("\(error)", "lost the connection to pasteboardd: the daemon handed off a load without a hand-off socket")
        }
    }

    func testAHandoffThatLostBytesIsCaughtAtTheEnd() throws {
        var exchange = ReadExchange(window: window)
        _ = try exchange.take(.message(.representation(header()), requestID: 5), handoff: nil)
        guard case .progress(let report) = try exchange.take(.message(.progress(ProgressReport(completed: 10, total: 10)), requestID: 5),
                                                              handoff: nil) else {
            return XCTFail("progress")
        }
        XCTAssertEqual(report.completed, 10)
        exchange.handedOff(7)
        XCTAssertThrowsError(try exchange.take(.data(bytes(0), requestID: 5, end: true), handoff: nil)) { error in
            XCTAssertEqual("\(error)", "lost the connection to pasteboardd: the source wrote 10 bytes, but 7 arrived")
        }
    }

    func testTheDaemonsErrorEndsTheLoadWithItsCode() throws {
        var exchange = ReadExchange(window: window)
        XCTAssertThrowsError(try exchange.take(.message(.error(ProtocolError(.noSuchItem, "general has no item 3")), requestID: 5),
                                               handoff: nil)) { error in
            XCTAssertEqual((error as? PasteboardError)?.code, .noSuchItem)
        }
        guard case .attachHandoff = try exchange.take(.message(.attach, requestID: 5), handoff: nil) else {
            return XCTFail("attach asks the connection to attach its hand-off socket")
        }
        guard case .ignored = try exchange.take(.message(.ok(OK()), requestID: 5), handoff: nil) else { return XCTFail("ignored") }
    }
}

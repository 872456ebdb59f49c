import NIOCore
@testable import PasteboardLink
import PasteboardProtocol
import PasteboardSystem
import XCTest

/// The link protocol's messages as pasteboard-protocol(7), LINKS, gives them, and the bounds an
/// end holds the other end's numbers to.
final class LinkWireTests: XCTestCase {
    private let machine = String(repeating: "c", count: 32)

    func testEveryMessageSurvivesEncodingAndDecoding() throws {
        let origin = ChangeOrigin(machine: machine, name: "gamma", clock: 1_796_000_000_000)
        let messages: [LinkMessage] = [
            .hello(LinkHello(software: "pb 0.1.0", machine: machine, name: "gamma", pasteboards: ["general", "notes"], sensitive: false,
                             capture: 1 << 20, window: 4 << 20)),
            .offer(LinkOffer(pasteboard: "general", origin: origin, items: [
                LinkItem(representations: [LinkRepresentation(type: "public.png", size: 900), LinkRepresentation(type: "public.utf8-plain-text", size: 6, inline: true)],
                         suggestedName: "sunset.png"),
            ], expiresIn: 30)),
            .clear(LinkClear(pasteboard: "general", origin: origin)),
            .fetch(LinkFetch(pasteboard: "general", origin: origin, item: 0, type: "public.png")),
            .header(LinkHeader(type: "public.png", size: 900)),
            .credit(Credit(bytes: 65536)),
            .cancel,
            .error(ProtocolError(.sourceUnavailable, "gone")),
            .ping(LinkPing(value: 12345)),
            .pong(LinkPing(value: 12345)),
        ]
        for message in messages {
            let decoded = try LinkMessageCodec.decode(LinkMessageCodec.encode(message))
            XCTAssertEqual(decoded, message)
        }
        let json = String(buffer: LinkMessageCodec.encode(.fetch(LinkFetch(pasteboard: "general", origin: origin, item: 0, type: "public.png"))))
        XCTAssertTrue(json.hasPrefix(#"{"op":"fetch""#), json)
    }

    func testGarbageAndUnknownOpsAreNamedErrors() {
        XCTAssertThrowsError(try LinkMessageCodec.decode(ByteBuffer(string: "\u{1}garbage"))) { error in
            XCTAssertEqual((error as? ProtocolError)?.code, .malformedMessage)
        }
        XCTAssertThrowsError(try LinkMessageCodec.decode(ByteBuffer(string: #"{"op":"teleport"}"#))) { error in
            XCTAssertEqual((error as? ProtocolError)?.code, .unknownMessage)
        }
        XCTAssertThrowsError(try LinkMessageCodec.decode(ByteBuffer(string: #"{"op":"fetch","item":"zero"}"#))) { error in
            XCTAssertEqual((error as? ProtocolError)?.code, .malformedMessage)
        }
    }

    func testAHelloOutsideTheBoundsIsRefusedWithItsReason() {
        let good = LinkHello(software: "pb", machine: machine, name: "gamma", pasteboards: ["general"], sensitive: false, capture: 1 << 20, window: 4 << 20)
        XCTAssertNil(good.problem)
        var bad = good
        bad.machine = "../../etc"
        XCTAssertNotNil(bad.problem)
        bad = good
        bad.capture = 1 << 40
        XCTAssertEqual(bad.problem?.contains("capture"), true)
        bad = good
        bad.window = 1
        XCTAssertEqual(bad.problem?.contains("window"), true)
        bad = good
        bad.pasteboards = ["../secret"]
        XCTAssertEqual(bad.problem?.contains("pasteboard"), true)
        bad = good
        bad.pasteboards = (0..<65).map { "p\($0)" }
        XCTAssertNotNil(bad.problem)
    }

    func testAnOfferIsAssembledOnlyWithinItsDeclaredSizesAndTheCapture() throws {
        let origin = ChangeOrigin(machine: machine, clock: 1)
        let offer = LinkOffer(pasteboard: "general", origin: origin, items: [
            LinkItem(representations: [LinkRepresentation(type: "public.utf8-plain-text", size: 5, inline: true), LinkRepresentation(type: "public.png", size: 10)]),
        ])
        var assembly = try OfferAssembly(offer, capture: 100)
        XCTAssertFalse(assembly.isComplete)
        try assembly.take(ByteBuffer(string: "hel"), end: false)
        try assembly.take(ByteBuffer(string: "lo"), end: true)
        XCTAssertTrue(assembly.isComplete)
        XCTAssertEqual(assembly.bytes(item: 0, representation: 0).map { $0.map { String(buffer: $0) }.joined() }, "hello")
        XCTAssertNil(assembly.bytes(item: 0, representation: 1), "a promised representation has no inline bytes")

        var long = try OfferAssembly(offer, capture: 100)
        XCTAssertThrowsError(try long.take(ByteBuffer(string: "hello!"), end: true), "more bytes than declared")
        var short = try OfferAssembly(offer, capture: 100)
        XCTAssertThrowsError(try short.take(ByteBuffer(string: "hell"), end: true), "fewer bytes than declared")
        XCTAssertThrowsError(try OfferAssembly(offer, capture: 4), "inline bytes over the capture are refused before any arrive")
        let unsized = LinkOffer(pasteboard: "general", origin: origin, items: [LinkItem(representations: [LinkRepresentation(type: "public.utf8-plain-text", inline: true)])])
        XCTAssertThrowsError(try OfferAssembly(unsized, capture: 100), "an inline representation must declare its size")
    }

    func testTheSSHCommandIsSplitAsAShellWouldAndTheDestinationCannotBeAnOption() throws {
        XCTAssertEqual(SSHCommand.words(#"ssh -p 2222 -i "/home/a b/key" -o 'ProxyJump=gw' x\ y"#),
                       ["ssh", "-p", "2222", "-i", "/home/a b/key", "-o", "ProxyJump=gw", "x y"])
        XCTAssertNil(SSHCommand.words("ssh 'unclosed"))
        XCTAssertEqual(try SSHCommand.sshWords(option: nil, environment: ["PASTEBOARD_SSH": "ssh -4"]), ["ssh", "-4"])
        XCTAssertEqual(try SSHCommand.sshWords(option: nil, environment: [:]), ["ssh"])
        let command = SSHCommand(ssh: ["ssh", "-4"], destination: "alice@desk", remote: ["pb", "link", "--serve"])
        XCTAssertEqual(command.arguments, ["ssh", "-4", "--", "alice@desk", "pb", "link", "--serve"], "-- keeps the destination from being an option")
        for bad in ["-oProxyCommand=sh", "a b", "", "host;rm", "a@b@c", "@host", String(repeating: "h", count: 256)] {
            XCTAssertNotNil(LinkDestination.problem(bad), "'\(bad)' was taken as a destination")
        }
        for good in ["desk", "alice@desk.example.org", "10.0.0.7", "[fe80::1%eth0]", "bob@host-2"] {
            XCTAssertNil(LinkDestination.problem(good), good)
        }
    }

    func testAFailedAttemptIsExplainedByWhatSSHSaid() {
        let command = SSHCommand(ssh: ["ssh"], destination: "desk", remote: ["pb", "link", "--serve"])
        let missing = LinkAgent.explain(LinkError("the other end closed the link before its hello"), status: 127 << 8,
                                        errors: ["bash: line 1: pb: command not found"], command: command)
        XCTAssertTrue(missing.description.contains("has no 'pb'"), missing.description)
        let unreachable = LinkAgent.explain(LinkError("closed"), status: 255 << 8, errors: ["ssh: connect to host desk port 22: Connection refused"], command: command)
        XCTAssertTrue(unreachable.description.contains("ssh could not reach desk"), unreachable.description)
        XCTAssertTrue(unreachable.description.contains("Connection refused"), unreachable.description)
    }
}

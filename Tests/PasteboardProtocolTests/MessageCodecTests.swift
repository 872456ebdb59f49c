import NIOCore
import PasteboardJSON
@testable import PasteboardProtocol
import PasteboardSystem
import PasteboardTypes
import Foundation
import XCTest

final class MessageCodecTests: XCTestCase {
    private let samples: [Message] = [
        .hello(Hello(client: "pb", pid: 123)),
        .welcome(Welcome(daemon: "pasteboardd 0.1.0", pid: 9, maxFrameLength: 1 << 20, window: 4 << 20)),
        .error(ProtocolError(.noSuchItem, "pasteboard 'general' is empty")),
        .ok(OK(changeCount: 3)),
        .ok(OK()),
        .write(WriteRequest(pasteboard: "work", items: [
            ItemInfo(representations: [RepresentationInfo(type: "public.png", size: 10), RepresentationInfo(type: "public.utf8-plain-text")], suggestedName: "a.png"),
        ])),
        .read(ReadRequest(pasteboard: "general", item: 1, accept: ["text/html"])),
        .representation(RepresentationHeader(changeCount: 4, item: 0, index: 1, type: "public.html", size: nil, mimeType: "text/html")),
        .list(PasteboardRequest(pasteboard: "general")),
        .items(ItemsReply(pasteboard: "general", changeCount: 2, items: [])),
        .clear(ClearRequest(pasteboard: "x")),
        .clear(ClearRequest(pasteboard: "x", ifChangeCount: 7)),
        .watch(PasteboardRequest(pasteboard: "y")),
        .changed(ItemsReply(pasteboard: "y", changeCount: 5, items: [ItemInfo(representations: [RepresentationInfo(type: "public.data", size: 0, mimeType: nil)])])),
        .credit(Credit(bytes: 65536)),
        .cancel,
        .write(WriteRequest(pasteboard: "lazy", items: [
            ItemInfo(representations: [
                RepresentationInfo(type: "public.png", size: 9, promise: 3),
                RepresentationInfo(type: "public.data", file: "/tmp/x", openInPlace: true),
            ], visibility: .ownProcess),
        ])),
        .read(ReadRequest(pasteboard: "general", accept: [], openInPlace: true)),
        .representation(RepresentationHeader(changeCount: 1, item: 0, index: 0, type: "public.data", size: 3, mimeType: nil, path: "/tmp/x")),
        .progress(ProgressReport(completed: 10, total: nil)),
        .progress(ProgressReport(completed: 10, total: 20)),
        .produce(ProduceRequest(promise: 3, pasteboard: "general", item: 0, type: "public.png", capture: true, destinationPID: 42)),
        .size(SizeDeclaration(bytes: 9)),
        .released(Released(promises: [1, 3])),
        .relinquish,
        .attach,
        .hello(Hello(client: "gallery", pid: 7, app: "com.example.gallery")),
        .drag(DragRequest(items: [ItemInfo(representations: [RepresentationInfo(type: "public.png", promise: 1)])], allow: [.copy, .move], restricted: true, localContext: "{}", timeout: 2.5)),
        .add(AddItemsRequest(session: 3, items: [ItemInfo(representations: [RepresentationInfo(type: "public.utf8-plain-text", size: 2)])])),
        .session(SessionInfo(id: 3, app: "pb", client: "pb", pid: 9, allow: [.copy], restricted: nil, state: .dropped, items: [], operation: .copy)),
        .sessions(SessionsRequest()),
        .sessions(SessionsRequest(session: 4)),
        .sessions(SessionsRequest(watch: true)),
        .sessionList(SessionList(sessions: [])),
        .drop(DropRequest(operation: .forbidden)),
        .drop(DropRequest(session: 2, operation: .move)),
        .finish(FinishRequest(session: 2, success: false, message: "disk full", localContext: "/a.json")),
        .proposed(DestinationReport(operation: .cancel, app: "pb", pid: 5)),
        .dropped(DestinationReport(operation: .move, app: "com.example.gallery", pid: 6)),
        .ended(SessionEnd(outcome: .finished, operation: .move, destinationApp: "pb")),
        .read(ReadRequest(session: 2, item: 1, accept: ["public.png"])),
        .produce(ProduceRequest(promise: 1, pasteboard: nil, session: 2, item: 0, type: "public.png")),
        .declare(DeclareRequest(types: [TypeDeclaration(identifier: "com.example.thing", conformsTo: [.data], mimeTypes: ["application/x-thing"])])),
        .types(TypesRequest()),
        .types(TypesRequest(start: 30)),
        .typeList(TypeList(generation: 0, types: [])),
        .watchTypes,
        .typesChanged(TypesChanged(generation: 12)),
        .typeList(TypeList(generation: 4, types: [
            TypeDeclarationInfo(declaration: TypeDeclaration(identifier: "public.png", conformsTo: [.image], mimeTypes: ["image/png"]), source: TypeDeclarationInfo.builtIn),
            TypeDeclarationInfo(declaration: TypeDeclaration(identifier: "com.example.cad", conformsTo: [.data], magic: [MagicPattern(offset: 0, bytes: [0x43])]),
                                source: TypeDeclarationInfo.file, file: "/home/u/.config/pasteboard/types.d/cad.json"),
            TypeDeclarationInfo(declaration: TypeDeclaration(identifier: "com.example.note", conformsTo: [.json]), source: TypeDeclarationInfo.app, app: "notes", abridged: true),
        ], more: true)),
        .history(HistoryRequest()),
        .history(HistoryRequest(start: 40)),
        .historySearch(HistorySearchRequest(text: "Hello")),
        .historySearch(HistorySearchRequest(text: "Hello", start: 3)),
        .historyRestore(HistoryRestoreRequest(index: 2)),
        .historyClear,
        .historyList(HistoryList(entries: [])),
        .historyList(HistoryList(entries: [HistoryEntryInfo(index: 4, changeCount: 1, time: 0, size: 0, items: [])], more: true)),
        .historyList(HistoryList(entries: [
            HistoryEntryInfo(index: 0, changeCount: 7, time: 1_763_700_000.25, current: true, size: 5, preview: "hello",
                             items: [ItemInfo(representations: [RepresentationInfo(type: "public.utf8-plain-text", size: 5, mimeType: "text/plain;charset=utf-8")])]),
            HistoryEntryInfo(index: 1, changeCount: 3, time: 1_763_600_000, size: 9, items: [
                ItemInfo(representations: [RepresentationInfo(type: "public.png", size: 9, lazy: true)], suggestedName: "a.png"),
            ]),
        ])),
        .error(ProtocolError(.noSuchEntry, "the history has no entry 5: its entries are 0 to 1")),
    ]

    func testEveryMessageRoundTrips() throws {
        for message in samples {
            XCTAssertEqual(try MessageCodec.decode(MessageCodec.encode(message)), message, "\(message.op)")
        }
    }

    func testOpMemberNamesTheMessage() throws {
        let json = String(buffer: MessageCodec.encode(.credit(Credit(bytes: 5))))
        XCTAssertTrue(json.contains(#""op":"credit""#), json)
        XCTAssertTrue(json.contains(#""bytes":5"#), json)
    }

    func testUnknownMembersAreIgnored() throws {
        let message = try MessageCodec.decode(ByteBuffer(string: #"{"op":"list","pasteboard":"general","future":[1,2]}"#))
        XCTAssertEqual(message, .list(PasteboardRequest(pasteboard: "general")))
    }

    func testUnknownOpIsUnknownMessage() {
        XCTAssertThrowsError(try MessageCodec.decode(ByteBuffer(string: #"{"op":"teleport"}"#))) { error in
            XCTAssertEqual((error as? ProtocolError)?.code, .unknownMessage)
        }
    }

    func testMissingFieldNamesTheField() {
        XCTAssertThrowsError(try MessageCodec.decode(ByteBuffer(string: #"{"op":"drop","session":2}"#))) { error in
            let error = error as? ProtocolError
            XCTAssertEqual(error?.code, .malformedMessage)
            XCTAssertTrue(error?.message.contains("operation") == true, error?.message ?? "")
        }
    }

    func testWrongTypeAndGarbageAreMalformed() {
        for payload in [#"{"op":"credit","bytes":"many"}"#, "not json", "[1,2,3]", "", #"{"no":"op"}"#] {
            XCTAssertThrowsError(try MessageCodec.decode(ByteBuffer(string: payload)), payload) { error in
                XCTAssertEqual((error as? ProtocolError)?.code, .malformedMessage, payload)
            }
        }
    }

    func testUnknownErrorCodeFromANewerPeerKeepsItsMessage() throws {
        let message = try MessageCodec.decode(ByteBuffer(string: #"{"op":"error","code":"quantum-flux","message":"too much flux"}"#))
        XCTAssertEqual(message, .error(ProtocolError(.internal, "too much flux")))
    }

    /// The codec is hand-written (not Foundation's): what it writes must be JSON any other
    /// parser reads the same way, and what any JSON writer sends must decode.
    func testStringsWithEscapesAndUnicodeAreStandardJSON() throws {
        let awkward = "quote \" backslash \\ newline \n tab \t bell \u{07} slash / é 😀"
        let message = Message.finish(FinishRequest(session: 2, success: false, message: awkward))
        let payload = MessageCodec.encode(message)
        let parsed = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(payload.readableBytesView)) as? [String: Any])
        XCTAssertEqual(parsed["message"] as? String, awkward)
        XCTAssertEqual(parsed["op"] as? String, "finish")
        XCTAssertEqual(try MessageCodec.decode(payload), message)

        let fromFoundation = try JSONSerialization.data(withJSONObject: ["op": "finish", "session": 2, "success": false, "message": awkward])
        XCTAssertEqual(try MessageCodec.decode(ByteBuffer(bytes: fromFoundation)), message)
        let escapedByHand = #"{"op":"finish","session":2,"success":false,"message":"\u00e9\ud83d\ude00\/"}"#
        XCTAssertEqual(try MessageCodec.decode(ByteBuffer(string: escapedByHand)), .finish(FinishRequest(session: 2, success: false, message: "é😀/")))
    }

    func testIntegersKeepEveryDigitAndAreWrittenOnlyAsIntegers() throws {
        for bytes in [Int.max, Int.min, (1 << 53) + 1, 0] {
            XCTAssertEqual(try MessageCodec.decode(MessageCodec.encode(.credit(Credit(bytes: bytes)))), .credit(Credit(bytes: bytes)))
        }
        XCTAssertEqual(try MessageCodec.decode(ByteBuffer(string: #"{"op":"credit","bytes":-0}"#)), .credit(Credit(bytes: 0)))
        // A fraction or an exponent is no integer, even when the value is whole.
        for literal in ["6.5e4", "2.0", "1e0", "0.0", "1.5", "1e400", "1E2"] {
            let payload = #"{"op":"credit","bytes":\#(literal)}"#
            XCTAssertThrowsError(try MessageCodec.decode(ByteBuffer(string: payload)), payload) { error in
                let error = error as? ProtocolError
                XCTAssertEqual(error?.code, .malformedMessage, payload)
                XCTAssertEqual(error?.message, "field 'bytes': \(literal) is not an integer (integers are written without a fraction or an exponent)")
            }
        }
        // One past either end is refused alike (a Double used to round the negative one to Int.min).
        for literal in ["9223372036854775808", "-9223372036854775809", "99999999999999999999"] {
            let payload = #"{"op":"credit","bytes":\#(literal)}"#
            XCTAssertThrowsError(try MessageCodec.decode(ByteBuffer(string: payload)), payload) { error in
                XCTAssertEqual((error as? ProtocolError)?.message,
                               "field 'bytes': \(literal) is out of range (-9223372036854775808 to 9223372036854775807)")
            }
        }
        XCTAssertThrowsError(try MessageCodec.decode(ByteBuffer(string: #"{"op":"hello","version":1,"client":"c","pid":2147483648}"#))) { error in
            XCTAssertEqual((error as? ProtocolError)?.message, "field 'pid': 2147483648 is out of range (-2147483648 to 2147483647)")
        }
    }

    func testARepeatedMemberNameIsMalformedAtAnyDepth() {
        let payloads = [
            #"{"op":"list","pasteboard":"general","op":"clear"}"#,
            #"{"op":"credit","bytes":1,"bytes":2}"#,
            #"{"op":"credit","bytes":1,"extra":1,"extra":2}"#,
            #"{"op":"write","pasteboard":"p","items":[{"representations":[{"type":"a.b","size":1,"size":2}]}]}"#,
        ]
        for payload in payloads {
            XCTAssertThrowsError(try MessageCodec.decode(ByteBuffer(string: payload)), payload) { error in
                let error = error as? ProtocolError
                XCTAssertEqual(error?.code, .malformedMessage, payload)
                XCTAssertTrue(error?.message.contains("appears more than once") == true, error?.message ?? "")
            }
        }
        // The same name in different objects is no repetition.
        XCTAssertNoThrow(try MessageCodec.decode(ByteBuffer(string:
            #"{"op":"write","pasteboard":"p","items":[{"representations":[{"type":"a.b"},{"type":"c.d"}]}]}"#)))
    }

    func testSecondsOutsideTheLimitAreRefusedAndNeverTrapWhenConverted() {
        for seconds in [0, -1, 1e9 + 1, 1e19, .infinity, -.infinity, .nan] {
            XCTAssertNotNil(SecondsLimit.validationFailure(seconds), "\(seconds)")
        }
        for seconds in [0.001, 1, 86_400, 1e9] { XCTAssertNil(SecondsLimit.validationFailure(seconds), "\(seconds)") }
        XCTAssertEqual(SecondsLimit.duration(1e19), .seconds(1_000_000_000))
        XCTAssertEqual(SecondsLimit.duration(.infinity), .seconds(1_000_000_000))
        XCTAssertEqual(SecondsLimit.duration(.nan), .zero)
        XCTAssertEqual(SecondsLimit.duration(-5), .zero)
        XCTAssertEqual(SecondsLimit.duration(0.0001), .milliseconds(1), "a positive span never becomes 0")
        XCTAssertEqual(SecondsLimit.describe(1e19), "1e+19")
        XCTAssertEqual(SecondsLimit.describe(.infinity), "inf")
        XCTAssertEqual(SecondsLimit.describe(2), "2")
    }

    /// One message of every op with every optional member set, nested ones included.
    private let everyMemberSet: [Message] = {
        let representation = RepresentationInfo(type: "public.png", size: 9, mimeType: "image/png", promise: 3, file: "/f", openInPlace: true,
                                                lazy: true, unavailable: false)
        let item = ItemInfo(representations: [representation], suggestedName: "a.png", visibility: .ownProcess, sensitive: true)
        let origin = ChangeOrigin(machine: String(repeating: "a", count: 32), name: "desk", clock: 1_796_000_000_000)
        let session = SessionInfo(id: 3, app: "pb", client: "pb", pid: 9, allow: [.copy, .move], restricted: true, state: .dropped, items: [item],
                                  localContext: "{}", operation: .move, desktop: true, zone: 2, desktopAt: DesktopPoint(x: 10, y: 20))
        return [
            .hello(Hello(version: 1, client: "pb", pid: 123, app: "com.example.app")),
            .welcome(Welcome(daemon: "pasteboardd", pid: 9, maxFrameLength: 1 << 20, window: 4 << 20, handoff: HandoffOffer(path: "/run/h", token: "ab"),
                             machine: origin.machine, machineName: "desk")),
            .error(ProtocolError(.noSuchItem, "pasteboard 'general' is empty")),
            .ok(OK(changeCount: 3)),
            .write(WriteRequest(pasteboard: "p", items: [item], expire: 1.5, ifChangeCount: 2, origin: origin)),
            .read(ReadRequest(pasteboard: "general", session: 2, item: 1, accept: ["text/html"], openInPlace: true, handoff: true, handoffFile: false)),
            .representation(RepresentationHeader(changeCount: 4, item: 0, index: 1, type: "public.html", size: 12, mimeType: "text/html", path: "/a",
                                                 handoff: true)),
            .attach,
            .list(PasteboardRequest(pasteboard: "general")),
            .items(ItemsReply(pasteboard: "general", changeCount: 2, items: [item], origin: origin, expiresIn: 30)),
            .clear(ClearRequest(pasteboard: "x", ifChangeCount: 7, origin: origin)),
            .watch(PasteboardRequest(pasteboard: "y")),
            .changed(ItemsReply(pasteboard: "y", changeCount: 5, items: [item], origin: origin, expiresIn: 30)),
            .credit(Credit(bytes: 65536)),
            .cancel,
            .progress(ProgressReport(completed: 10, total: 20)),
            .declare(DeclareRequest(types: [TypeDeclaration(identifier: "com.example.thing", conformsTo: [.data], mimeTypes: ["application/x-thing"],
                                                            filenameExtensions: ["thing"], magic: [MagicPattern(offset: 1, bytes: [0x43])],
                                                            description: "A thing")])),
            .types(TypesRequest(start: 30)),
            .typeList(TypeList(generation: 4, types: [
                TypeDeclarationInfo(declaration: TypeDeclaration(identifier: "public.png", conformsTo: [.image]), source: TypeDeclarationInfo.app,
                                    file: "/t.json", app: "notes", abridged: true),
            ], more: true)),
            .watchTypes,
            .typesChanged(TypesChanged(generation: 5)),
            .produce(ProduceRequest(promise: 3, pasteboard: "general", session: 1, item: 0, type: "public.png", capture: true, destinationPID: 42,
                                    handoff: true)),
            .size(SizeDeclaration(bytes: 9)),
            .released(Released(promises: [1, 3])),
            .relinquish,
            .drag(DragRequest(items: [item], allow: [.copy], restricted: false, localContext: "ctx", timeout: 2.5, desktop: true, zone: 2,
                              desktopAt: DesktopPoint(x: 10, y: 20))),
            .add(AddItemsRequest(session: 3, items: [item])),
            .session(session),
            .sessions(SessionsRequest(session: 4, watch: true, zone: DropZoneRequest(title: "inbox", accept: ["public.png"]))),
            .sessionList(SessionList(sessions: [session], zones: [DropZoneInfo(id: 2, app: "pb", pid: 9, title: "inbox", accept: ["public.png"])], zone: 2)),
            .drop(DropRequest(session: 2, operation: .move)),
            .finish(FinishRequest(session: 2, success: false, message: "disk full", localContext: "/a.json", operation: .copy)),
            .proposed(DestinationReport(operation: .forbidden, app: "pb", pid: 5)),
            .dropped(DestinationReport(operation: .copy, app: "gallery", pid: 6)),
            .ended(SessionEnd(outcome: .finished, operation: .move, message: "done", destinationApp: "pb", localContext: "c")),
            .history(HistoryRequest(start: 40)),
            .historySearch(HistorySearchRequest(text: "Hello", start: 3)),
            .historyList(HistoryList(entries: [HistoryEntryInfo(index: 0, changeCount: 7, time: 1_763_700_000.25, current: true, size: 5,
                                                                preview: "hello", items: [item], origin: origin)], more: true)),
            .historyRestore(HistoryRestoreRequest(index: 2)),
            .historyClear,
        ]
    }()

    /// Every op of protocol v1: a message added without a sample here fails the test below.
    private let everyOp: Set<String> = [
        "hello", "welcome", "error", "ok", "write", "read", "representation", "attach", "list", "items", "clear", "watch", "changed", "credit",
        "cancel", "progress", "declare", "types", "type-list", "watch-types", "types-changed", "produce", "size", "released", "relinquish", "drag", "add", "session", "sessions",
        "session-list", "drop", "finish", "proposed", "dropped", "ended", "history", "history-search", "history-list", "history-restore",
        "history-clear",
    ]

    /// The bytes of every op with every member set, as written when JSON took one path (the
    /// members lists): a change to how messages are defined must leave the wire alone, member
    /// order and spelling included (pasteboard-protocol(7) and other clients rely on them).
    func testEveryMessageIsWrittenByteForByteAsBefore() {
        let expected = [
            #"{"op":"hello","version":1,"client":"pb","pid":123,"app":"com.example.app"}"#,
            #"{"op":"welcome","version":1,"daemon":"pasteboardd","pid":9,"maxFrameLength":1048576,"window":4194304,"handoff":{"path":"/run/h","token":"ab"},"machine":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","machineName":"desk"}"#,
            #"{"op":"error","code":"no-such-item","message":"pasteboard 'general' is empty"}"#,
            #"{"op":"ok","changeCount":3}"#,
            #"{"op":"write","pasteboard":"p","items":[{"representations":[{"type":"public.png","size":9,"mimeType":"image/png","promise":3,"file":"/f","openInPlace":true,"lazy":true,"unavailable":false}],"suggestedName":"a.png","visibility":"own-process","sensitive":true}],"expire":1.5,"ifChangeCount":2,"origin":{"machine":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","name":"desk","clock":1796000000000}}"#,
            #"{"op":"read","pasteboard":"general","session":2,"item":1,"accept":["text/html"],"openInPlace":true,"handoff":true,"handoffFile":false}"#,
            #"{"op":"representation","changeCount":4,"item":0,"index":1,"type":"public.html","size":12,"mimeType":"text/html","path":"/a","handoff":true}"#,
            #"{"op":"attach"}"#,
            #"{"op":"list","pasteboard":"general"}"#,
            #"{"op":"items","pasteboard":"general","changeCount":2,"items":[{"representations":[{"type":"public.png","size":9,"mimeType":"image/png","promise":3,"file":"/f","openInPlace":true,"lazy":true,"unavailable":false}],"suggestedName":"a.png","visibility":"own-process","sensitive":true}],"origin":{"machine":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","name":"desk","clock":1796000000000},"expiresIn":30}"#,
            #"{"op":"clear","pasteboard":"x","ifChangeCount":7,"origin":{"machine":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","name":"desk","clock":1796000000000}}"#,
            #"{"op":"watch","pasteboard":"y"}"#,
            #"{"op":"changed","pasteboard":"y","changeCount":5,"items":[{"representations":[{"type":"public.png","size":9,"mimeType":"image/png","promise":3,"file":"/f","openInPlace":true,"lazy":true,"unavailable":false}],"suggestedName":"a.png","visibility":"own-process","sensitive":true}],"origin":{"machine":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","name":"desk","clock":1796000000000},"expiresIn":30}"#,
            #"{"op":"credit","bytes":65536}"#,
            #"{"op":"cancel"}"#,
            #"{"op":"progress","completed":10,"total":20}"#,
            #"{"op":"declare","types":[{"identifier":"com.example.thing","conformsTo":["public.data"],"mimeTypes":["application/x-thing"],"filenameExtensions":["thing"],"magic":[{"offset":1,"bytes":"43"}],"description":"A thing"}]}"#,
            #"{"op":"types","start":30}"#,
            #"{"op":"type-list","generation":4,"types":[{"declaration":{"identifier":"public.png","conformsTo":["public.image"]},"source":"app","file":"/t.json","app":"notes","abridged":true}],"more":true}"#,
            #"{"op":"watch-types"}"#,
            #"{"op":"types-changed","generation":5}"#,
            #"{"op":"produce","promise":3,"pasteboard":"general","session":1,"item":0,"type":"public.png","capture":true,"destinationPID":42,"handoff":true}"#,
            #"{"op":"size","bytes":9}"#,
            #"{"op":"released","promises":[1,3]}"#,
            #"{"op":"relinquish"}"#,
            #"{"op":"drag","items":[{"representations":[{"type":"public.png","size":9,"mimeType":"image/png","promise":3,"file":"/f","openInPlace":true,"lazy":true,"unavailable":false}],"suggestedName":"a.png","visibility":"own-process","sensitive":true}],"allow":["copy"],"restricted":false,"localContext":"ctx","timeout":2.5,"desktop":true,"zone":2,"desktopAt":{"x":10,"y":20}}"#,
            #"{"op":"add","session":3,"items":[{"representations":[{"type":"public.png","size":9,"mimeType":"image/png","promise":3,"file":"/f","openInPlace":true,"lazy":true,"unavailable":false}],"suggestedName":"a.png","visibility":"own-process","sensitive":true}]}"#,
            #"{"op":"session","id":3,"app":"pb","client":"pb","pid":9,"allow":["copy","move"],"restricted":true,"state":"dropped","items":[{"representations":[{"type":"public.png","size":9,"mimeType":"image/png","promise":3,"file":"/f","openInPlace":true,"lazy":true,"unavailable":false}],"suggestedName":"a.png","visibility":"own-process","sensitive":true}],"localContext":"{}","operation":"move","desktop":true,"zone":2,"desktopAt":{"x":10,"y":20}}"#,
            #"{"op":"sessions","session":4,"watch":true,"zone":{"title":"inbox","accept":["public.png"]}}"#,
            #"{"op":"session-list","sessions":[{"id":3,"app":"pb","client":"pb","pid":9,"allow":["copy","move"],"restricted":true,"state":"dropped","items":[{"representations":[{"type":"public.png","size":9,"mimeType":"image/png","promise":3,"file":"/f","openInPlace":true,"lazy":true,"unavailable":false}],"suggestedName":"a.png","visibility":"own-process","sensitive":true}],"localContext":"{}","operation":"move","desktop":true,"zone":2,"desktopAt":{"x":10,"y":20}}],"zones":[{"id":2,"app":"pb","pid":9,"title":"inbox","accept":["public.png"]}],"zone":2}"#,
            #"{"op":"drop","session":2,"operation":"move"}"#,
            #"{"op":"finish","session":2,"success":false,"message":"disk full","localContext":"/a.json","operation":"copy"}"#,
            #"{"op":"proposed","operation":"forbidden","app":"pb","pid":5}"#,
            #"{"op":"dropped","operation":"copy","app":"gallery","pid":6}"#,
            #"{"op":"ended","outcome":"finished","operation":"move","message":"done","destinationApp":"pb","localContext":"c"}"#,
            #"{"op":"history","start":40}"#,
            #"{"op":"history-search","text":"Hello","start":3}"#,
            #"{"op":"history-list","entries":[{"index":0,"changeCount":7,"time":1763700000.25,"current":true,"size":5,"preview":"hello","items":[{"representations":[{"type":"public.png","size":9,"mimeType":"image/png","promise":3,"file":"/f","openInPlace":true,"lazy":true,"unavailable":false}],"suggestedName":"a.png","visibility":"own-process","sensitive":true}],"origin":{"machine":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","name":"desk","clock":1796000000000}}],"more":true}"#,
            #"{"op":"history-restore","index":2}"#,
            #"{"op":"history-clear"}"#,
        ]
        XCTAssertEqual(everyMemberSet.count, expected.count)
        for (message, json) in zip(everyMemberSet, expected) {
            XCTAssertEqual(String(buffer: MessageCodec.encode(message)), json, message.op)
        }
    }

    /// Each message is defined once, by its members list, which both directions use: every
    /// member of every message, set, is written and read back. A stored property missing from
    /// its type's list is not written (the walk below finds it absent from the JSON); a new
    /// property the full sample does not set fails the walk too, so it cannot go untested.
    func testEveryMemberOfEveryMessageIsWrittenAndReadBack() throws {
        XCTAssertEqual(Set(everyMemberSet.map(\.op)), everyOp)
        for message in everyMemberSet {
            let payload = MessageCodec.encode(message)
            XCTAssertEqual(try MessageCodec.decode(payload), message, message.op)
            let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(payload.readableBytesView)) as? [String: Any])
            if let value = Mirror(reflecting: message).children.first?.value {
                assertEveryProperty(of: value, isIn: json, at: message.op)
            }
        }
    }

    /// Walks the stored properties of `value`, a message's payload, against its JSON object.
    private func assertEveryProperty(of value: Any, isIn json: Any, at path: String) {
        guard value is any JSONObjectCoding else { return }
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .collection {
            guard let elements = json as? [Any] else { return XCTFail("\(path) is not written as an array") }
            for (index, (element, written)) in zip(mirror.children.map(\.value), elements).enumerated() {
                assertEveryProperty(of: element, isIn: written, at: "\(path).\(index)")
            }
            return
        }
        guard let object = json as? [String: Any] else { return XCTFail("\(path) is not written as an object") }
        for child in mirror.children {
            guard let label = child.label else { continue }
            let unwrapped = Mirror(reflecting: child.value)
            if unwrapped.displayStyle == .optional {
                guard let some = unwrapped.children.first?.value else {
                    XCTFail("\(path).\(label) is not set in the sample with every member set")
                    continue
                }
                guard let written = object[label] else { XCTFail("\(path).\(label) is not written"); continue }
                assertEveryProperty(of: some, isIn: written, at: "\(path).\(label)")
            } else {
                guard let written = object[label] else { XCTFail("\(path).\(label) is not written"); continue }
                if let array = child.value as? [any JSONObjectCoding] {
                    assertEveryProperty(ofElements: array, isIn: written, at: "\(path).\(label)")
                } else {
                    assertEveryProperty(of: child.value, isIn: written, at: "\(path).\(label)")
                }
            }
        }
    }

    private func assertEveryProperty(ofElements elements: [any JSONObjectCoding], isIn json: Any, at path: String) {
        guard let written = json as? [Any], written.count == elements.count else { return XCTFail("\(path) is not written as its array") }
        for (index, element) in elements.enumerated() { assertEveryProperty(of: element, isIn: written[index], at: "\(path).\(index)") }
    }

    /// The same messages with every optional member unset: nothing is written for them, and they read back unset.
    func testEveryOptionalMemberUnsetIsLeftOutAndReadBackUnset() throws {
        let bare: [Message] = [
            .hello(Hello(client: "pb", pid: nil)),
            .welcome(Welcome(daemon: "d", pid: 1, maxFrameLength: 65536, window: 65536)),
            .ok(OK()),
            .write(WriteRequest(pasteboard: "p", items: [ItemInfo(representations: [RepresentationInfo(type: "t")])])),
            .read(ReadRequest(item: 0, accept: [])),
            .representation(RepresentationHeader(changeCount: 1, item: 0, index: 0, type: "t", size: nil, mimeType: nil)),
            .clear(ClearRequest(pasteboard: "x")),
            .progress(ProgressReport(completed: 1, total: nil)),
            .types(TypesRequest()),
            .typeList(TypeList(generation: 0, types: [TypeDeclarationInfo(declaration: TypeDeclaration(identifier: "a.b"), source: "file")])),
            .produce(ProduceRequest(promise: 1, pasteboard: nil, item: 0, type: "t")),
            .drag(DragRequest(items: [])),
            .session(SessionInfo(id: 1, app: "a", client: "c", pid: 1, allow: [], restricted: nil, state: .lifted, items: [])),
            .sessions(SessionsRequest()),
            .drop(DropRequest(operation: .cancel)),
            .finish(FinishRequest(session: 1, success: true)),
            .ended(SessionEnd(outcome: .cancelled)),
            .history(HistoryRequest()),
            .historySearch(HistorySearchRequest(text: "")),
            .historyList(HistoryList(entries: [HistoryEntryInfo(index: 0, changeCount: 0, time: 0, size: 0, items: [])])),
        ]
        for message in bare {
            let payload = MessageCodec.encode(message)
            XCTAssertEqual(try MessageCodec.decode(payload), message, message.op)
            var json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(payload.readableBytesView)) as? [String: Any])
            json["op"] = nil
            if let value = Mirror(reflecting: message).children.first?.value {
                assertOnlySetMembers(of: value, areIn: json, at: message.op)
            }
        }
    }

    /// The JSON object of `value` has exactly the members `value` sets, nested objects alike.
    private func assertOnlySetMembers(of value: Any, areIn json: Any, at path: String) {
        if let elements = value as? [any JSONObjectCoding], let written = json as? [Any] {
            for (index, element) in elements.enumerated() where index < written.count {
                assertOnlySetMembers(of: element, areIn: written[index], at: "\(path).\(index)")
            }
            return
        }
        guard value is any JSONObjectCoding, let object = json as? [String: Any] else { return }
        var set: Set<String> = []
        for child in Mirror(reflecting: value).children {
            guard let label = child.label else { continue }
            let mirror = Mirror(reflecting: child.value)
            if mirror.displayStyle == .optional, mirror.children.isEmpty { continue }
            set.insert(label)
            if let written = object[label] { assertOnlySetMembers(of: child.value, areIn: written, at: "\(path).\(label)") }
        }
        XCTAssertEqual(Set(object.keys), set, path)
    }

    /// Spellings only a foreign writer uses (nulls for optionals, other member orders, unknown
    /// members, escapes), and mistakes, whose errors name the field.
    func testForeignSpellingsAndMistakes() {
        let accepted: [(String, Message)] = [
            (#"{"pid":null,"client":"py","version":1,"op":"hello","extra":{"x":[]}}"#, .hello(Hello(version: 1, client: "py", pid: nil))),
            (#"{"op":"read","pasteboard":null,"session":4,"item":1,"accept":[],"handoff":null}"#, .read(ReadRequest(session: 4, item: 1))),
            (#"{"op":"welcome","version":1,"daemon":"d","pid":3,"maxFrameLength":65536,"window":8,"handoff":null}"#,
             .welcome(Welcome(version: 1, daemon: "d", pid: 3, maxFrameLength: 65536, window: 8))),
            (#"{"op":"error","code":"no-such-item","message":null}"#, .error(ProtocolError(.noSuchItem, "no-such-item"))),
            (#"{"op":"error","code":"from-the-future"}"#, .error(ProtocolError(.internal, "from-the-future"))),
            (#"{"\u006fp":"ok","changeCount":null}"#, .ok(OK())),
            (#"{"op":"write","pasteboard":"p","items":[{"representations":[{"type":"t","size":null}],"visibility":"own-process"}],"expire":null}"#,
             .write(WriteRequest(pasteboard: "p", items: [ItemInfo(representations: [RepresentationInfo(type: "t")], visibility: .ownProcess)]))),
        ]
        for (json, message) in accepted {
            XCTAssertEqual(try MessageCodec.decode(ByteBuffer(string: json)), message, json)
        }
        let refused: [(String, String)] = [
            (#"{"op":"hello","version":"1","client":"py"}"#, "field 'version' has the wrong type"),
            (#"{"op":"hello","version":1}"#, "missing field 'client'"),
            (#"{"op":"read","item":0,"accept":["a",1]}"#, "field 'accept.1' has the wrong type"),
            (#"{"op":"read","item":0,"accept":"public.png"}"#, "field 'accept' has the wrong type"),
            (#"{"op":"read","item":1.0,"accept":[]}"#, "field 'item': 1.0 is not an integer (integers are written without a fraction or an exponent)"),
            (#"{"op":"welcome","version":1,"daemon":"d","pid":3,"maxFrameLength":65536,"window":8,"handoff":{"path":"/p"}}"#,
             "missing field 'handoff.token'"),
            (#"{"op":"progress","completed":1,"total":"all"}"#, "field 'total' has the wrong type"),
            (#"{"op":"write","pasteboard":"p","items":[{"representations":[{"type":"t"}],"visibility":"everyone"}]}"#,
             "field 'items.0.visibility': 'everyone' is not one of the values this field takes"),
            (#"{"op":"write","pasteboard":"p","items":[{"representations":[{"size":1}]}]}"#, "missing field 'items.0.representations.0.type'"),
            (#"{"op":"hello","version":1,"client":"py","pid":4294967296}"#, "field 'pid': 4294967296 is out of range (-2147483648 to 2147483647)"),
            (#"{"op":"finish","session":1,"success":"yes"}"#, "field 'success' has the wrong type"),
            (#"{"op":"drag","items":[],"timeout":1e400}"#, "field 'timeout': the number 1e400 does not fit in Double"),
            (#"{"no":"op"}"#, "missing field 'op'"),
            (#"{"op":7}"#, "field 'op' has the wrong type"),
            ("[1,2,3]", "payload is not a JSON object"),
            ("not json", "payload is not JSON: unexpected character at byte 0"),
        ]
        for (json, expected) in refused {
            XCTAssertThrowsError(try MessageCodec.decode(ByteBuffer(string: json)), json) { error in
                XCTAssertEqual((error as? ProtocolError)?.code, .malformedMessage, json)
                XCTAssertEqual((error as? ProtocolError)?.message, expected, json)
            }
        }
        XCTAssertThrowsError(try MessageCodec.decode(ByteBuffer(string: #"{"op":"declare","types":[{"identifier":"x y"}]}"#))) { error in
            XCTAssertTrue((error as? ProtocolError)?.message.hasPrefix("field 'types.0': ") == true, "\(error)")
        }
    }

    /// Codable, for apps and `pb --json`, is derived from the same members lists: Foundation reads
    /// the codec's bytes (less `op`) as the same value, and the codec reads Foundation's.
    func testCodableFollowsTheMembersLists() throws {
        for message in everyMemberSet {
            guard let payload = Mirror(reflecting: message).children.first?.value as? any JSONObjectCoding & Equatable else { continue }
            try assertCodableMatches(payload, message.op)
        }
    }

    private func assertCodableMatches<Payload: JSONObjectCoding & Equatable>(_ payload: Payload, _ op: String) throws {
        var writer = JSONObjectWriter()
        payload.writeMembers(to: &writer)
        writer.close()
        XCTAssertEqual(try JSONDecoder().decode(Payload.self, from: Data(writer.output)), payload, "Codable reads what the codec writes: \(op)")
        XCTAssertEqual(try JSONDecoder().decode(Payload.self, from: JSONEncoder().encode(payload)), payload, op)
        XCTAssertEqual(try Payload(jsonDocument: Array(JSONEncoder().encode(payload))), payload, "the codec reads what Codable writes: \(op)")
    }

    /// Whatever the bytes, the codec either reads a message that survives a round trip or
    /// refuses them as malformed, and it never takes what is not JSON (by Foundation's reading).
    func testAnyMutationIsReadWhole() throws {
        for message in everyMemberSet {
            let bytes = Array(MessageCodec.encode(message).readableBytesView)
            var mutations: [[UInt8]] = []
            for cut in 0..<bytes.count { mutations.append(Array(bytes[..<cut])) }
            for index in bytes.indices {
                for replacement in Array(#" 0.e-"\{[n,"#.utf8) + [0x01, 0xC3, 0xFF] {
                    var mutated = bytes
                    mutated[index] = replacement
                    mutations.append(mutated)
                }
            }
            for mutated in mutations {
                let isJSON = (try? JSONSerialization.jsonObject(with: Data(mutated), options: [.fragmentsAllowed])) != nil
                do {
                    let decoded = try MessageCodec.decode(ByteBuffer(bytes: mutated))
                    XCTAssertTrue(isJSON, "read what is not JSON: \(String(decoding: mutated, as: UTF8.self))")
                    XCTAssertEqual(try MessageCodec.decode(MessageCodec.encode(decoded)), decoded)
                } catch {
                    XCTAssertTrue([.malformedMessage, .unknownMessage].contains(error.code), "\(error)")
                    XCTAssertFalse(error.message.isEmpty)
                }
            }
        }
    }

    func testNullForARequiredFieldSaysSo() {
        XCTAssertThrowsError(try MessageCodec.decode(ByteBuffer(string: #"{"op":"credit","bytes":null}"#))) { error in
            XCTAssertEqual((error as? ProtocolError)?.message, "field 'bytes' is null")
        }
        XCTAssertThrowsError(try MessageCodec.decode(ByteBuffer(string: #"{"op":"write","pasteboard":"a","items":[null]}"#))) { error in
            XCTAssertEqual((error as? ProtocolError)?.message, "field 'items.0' is null")
        }
    }
}

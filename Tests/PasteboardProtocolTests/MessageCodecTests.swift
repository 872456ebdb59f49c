import NIOCore
@testable import PasteboardProtocol
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

    /// The messages of every copy and paste are written and read by hand (`HotMessageCoding`);
    /// what they write must be exactly what the Codable path writes, and what they read exactly
    /// what it reads, errors included.
    func testHandWrittenMessagesMatchTheCodablePathByteForByte() throws {
        let awkward = "a \"quoted\" \\ name\n\u{01} é 😀"
        let hot: [Message] = samples + [
            .hello(Hello(version: 7, client: awkward, pid: nil, app: awkward)),
            .welcome(Welcome(daemon: awkward, pid: 2, maxFrameLength: 65536, window: 1,
                             handoff: HandoffOffer(path: "/run/user/1/pasteboard/pasteboardd.sock.handoff", token: String(repeating: "ab", count: 16)))),
            .read(ReadRequest(pasteboard: "general", item: 0, accept: ["public.png", awkward], openInPlace: false, handoff: true, handoffFile: true)),
            .read(ReadRequest(session: 9, item: 3, accept: [])),
            .representation(RepresentationHeader(changeCount: Int.max, item: 0, index: 2, type: awkward, size: 0, mimeType: "image/png",
                                                 path: "/a b", handoff: false)),
            .progress(ProgressReport(completed: Int.min, total: Int.max)),
            .error(ProtocolError(.cancelled, "")),
            .write(WriteRequest(pasteboard: awkward, items: [], ifChangeCount: 0)),
            .write(WriteRequest(pasteboard: "p", items: [
                ItemInfo(representations: [], suggestedName: awkward, visibility: .all, sensitive: false),
                ItemInfo(representations: [RepresentationInfo(type: "t", size: 1, mimeType: "m", promise: 2, file: "/f", openInPlace: false,
                                                              lazy: true, unavailable: false)], sensitive: true),
            ])),
            .write(WriteRequest(pasteboard: "p", items: [], expire: 1.5)),
        ]
        for message in hot {
            let written = MessageCodec.encode(message)
            XCTAssertEqual(Array(written.readableBytesView), try JSONBytesEncoder.encode(message), "\(message)")
            XCTAssertEqual(try MessageCodec.decode(written), message, "\(message)")
        }

        // Spellings only a foreign writer uses: nulls for optionals, other member orders,
        // numbers as floats, unknown members. And mistakes, whose errors name the field.
        let foreign = [
            #"{"pid":null,"client":"py","version":1,"op":"hello","extra":{"x":[]}}"#,
            #"{"op":"read","pasteboard":null,"session":4,"item":1.0,"accept":[],"handoff":null}"#,
            #"{"op":"representation","changeCount":1e2,"item":0,"index":0,"type":"t","size":null,"mimeType":null}"#,
            #"{"op":"welcome","version":1,"daemon":"d","pid":3,"maxFrameLength":65536,"window":8,"handoff":null}"#,
            #"{"op":"error","code":"no-such-item","message":null}"#,
            #"{"op":"error","code":"from-the-future"}"#,
            #"{"op":"ok","changeCount":null}"#,
            #"{"op":"write","pasteboard":"p","items":[{"representations":[{"type":"t","size":null}],"visibility":"own-process"}],"expire":null}"#,
            #"{"op":"hello","version":"1","client":"py"}"#,
            #"{"op":"hello","version":1}"#,
            #"{"op":"read","item":0,"accept":["a",1]}"#,
            #"{"op":"read","item":0,"accept":"public.png"}"#,
            #"{"op":"welcome","version":1,"daemon":"d","pid":3,"maxFrameLength":65536,"window":8,"handoff":{"path":"/p"}}"#,
            #"{"op":"credit","bytes":99999999999999999999}"#,
            #"{"op":"progress","completed":1,"total":"all"}"#,
            #"{"op":"write","pasteboard":"p","items":[{"representations":[{"type":"t"}],"visibility":"everyone"}]}"#,
            #"{"op":"write","pasteboard":"p","items":[{"representations":[{"size":1}]}]}"#,
            #"{"op":"hello","version":1,"client":"py","pid":4294967296}"#,
        ]
        for json in foreign {
            let viaCodable = Result { try JSONTreeDecoder.decode(Message.self, from: Array(json.utf8)) }
            let viaCodec = Result { try MessageCodec.decode(ByteBuffer(string: json)) }
            switch (viaCodable, viaCodec) {
            case (.success(let expected), .success(let actual)):
                XCTAssertEqual(actual, expected, json)
            case (.failure, .failure(let error)):
                let error = try XCTUnwrap(error as? ProtocolError, json)
                XCTAssertEqual(error.code, .malformedMessage, json)
                XCTAssertTrue(error.message.hasPrefix("field ") || error.message.hasPrefix("missing field "), "\(json): \(error.message)")
            default:
                XCTFail("\(json): Codable gave \(viaCodable), the codec \(viaCodec)")
            }
        }
    }

    /// The hot messages are read straight from their bytes, without a parsed tree, whenever
    /// they are written simply; and whatever the bytes, the codec's answer is the Codable path's.
    func testHotMessagesAreReadFromTheirBytesAndAnyMutationDecodesAsCodableDoes() throws {
        let hot: [Message] = [
            .hello(Hello(client: "pb", pid: 123, app: "café")),
            .welcome(Welcome(daemon: "pasteboardd", pid: 9, maxFrameLength: 1 << 20, window: 4 << 20,
                             handoff: HandoffOffer(path: "/run/p.handoff", token: "ab12"))),
            .ok(OK(changeCount: 3)),
            .read(ReadRequest(pasteboard: "general", item: 1, accept: ["text/html", "public.png"], openInPlace: false, handoff: true, handoffFile: true)),
            .representation(RepresentationHeader(changeCount: 4, item: 0, index: 1, type: "public.html", size: 12, mimeType: "text/html")),
            .credit(Credit(bytes: 65536)),
            .progress(ProgressReport(completed: -5, total: Int.max)),
            .size(SizeDeclaration(bytes: 0)),
            .cancel,
            .error(ProtocolError(.noSuchItem, "pasteboard 'general' is empty")),
            .write(WriteRequest(pasteboard: "p", items: [
                ItemInfo(representations: [RepresentationInfo(type: "public.png", size: 9, promise: 3, lazy: true)],
                         suggestedName: "ünï.png", visibility: .ownProcess, sensitive: true),
                ItemInfo(representations: []),
            ], ifChangeCount: 2)),
        ]
        for message in hot {
            let bytes = Array(MessageCodec.encode(message).readableBytesView)
            XCTAssertEqual(bytes.withUnsafeBytes { HotMessageCoding.decode($0) }, message, "not read from its bytes: \(message)")

            var mutations: [[UInt8]] = []
            for cut in 0..<bytes.count { mutations.append(Array(bytes[..<cut])) }
            for index in bytes.indices {
                for replacement in Array(#" 0.e-"\{[n,"#.utf8) + [0x01, 0xC3, 0xFF] {
                    var mutated = bytes
                    mutated[index] = replacement
                    mutations.append(mutated)
                }
                mutations.append(Array(bytes[..<index]) + Array(" \n".utf8) + Array(bytes[index...]))
            }
            // Every member written twice, the second time with other numbers: refused by both.
            let inner = bytes.dropFirst().dropLast()
            let renumbered = inner.map { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") ? UInt8(ascii: "7") : $0 }
            mutations.append([UInt8(ascii: "{")] + inner + [UInt8(ascii: ",")] + renumbered + [UInt8(ascii: "}")])

            for mutated in mutations {
                let viaCodable = Result { try JSONTreeDecoder.decode(Message.self, from: mutated) }
                let viaCodec = Result { try MessageCodec.decode(ByteBuffer(bytes: mutated)) }
                switch (viaCodable, viaCodec) {
                case (.success(let expected), .success(let actual)):
                    XCTAssertEqual(actual, expected, String(decoding: mutated, as: UTF8.self))
                case (.failure, .failure):
                    break
                default:
                    XCTFail("\(String(decoding: mutated, as: UTF8.self)): Codable gave \(viaCodable), the codec \(viaCodec)")
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

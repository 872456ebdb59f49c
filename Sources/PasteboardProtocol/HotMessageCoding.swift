import PasteboardTypes

/// Hand-written JSON for the messages of every copy and paste: `hello`, `welcome`, `write`,
/// `read`, `representation`, `ok`, `credit`, `progress`, `size`, `cancel` and `error`.
///
/// Codable reaches each field through generic containers; the first use of each container type
/// in a process instantiates its metadata, which on a statically linked binary scans every
/// protocol conformance record (callgrind: 2.8 million instructions for `pb paste`'s `hello`),
/// and every later use still costs 20,000–40,000 instructions a message in the daemon. These
/// paths write and read the fields directly; `decode` reads them from the message's bytes
/// (`ScannedJSONObject`), without first parsing them into a `JSONValue` tree.
///
/// They are exact shortcuts, never a second definition: `encode` writes the bytes
/// `JSONBytesEncoder` writes for the same message (members in declaration order, absent
/// optionals left out), and `decode` returns a message only when every member it reads is
/// present and well-typed as the Codable path wants it, else nil, so the Codable path decides,
/// and reports the error with its coding path.
enum HotMessageCoding {
    // MARK: Encoding

    /// The JSON of `message`, or nil when it is not one of the hot messages (or has a field
    /// the shortcut leaves to Codable, such as a write's expiry).
    static func encode(_ message: Message) -> [UInt8]? {
        var json: JSONObjectWriter
        switch message {
        case .hello(let hello):
            json = JSONObjectWriter(op: "hello")
            json.member("version", hello.version)
            json.member("client", hello.client)
            json.member("pid", hello.pid)
            json.member("app", hello.app)
        case .welcome(let welcome):
            json = JSONObjectWriter(op: "welcome")
            json.member("version", welcome.version)
            json.member("daemon", welcome.daemon)
            json.member("pid", welcome.pid)
            json.member("maxFrameLength", welcome.maxFrameLength)
            json.member("window", welcome.window)
            if let offer = welcome.handoff {
                json.key("handoff")
                json.output.append(contentsOf: #"{"path":"#.utf8)
                JSONObjectWriter.appendString(offer.path, to: &json.output)
                json.output.append(contentsOf: #","token":"#.utf8)
                JSONObjectWriter.appendString(offer.token, to: &json.output)
                json.output.append(UInt8(ascii: "}"))
            }
        case .ok(let ok):
            json = JSONObjectWriter(op: "ok")
            json.member("changeCount", ok.changeCount)
        case .read(let read):
            json = JSONObjectWriter(op: "read")
            json.member("pasteboard", read.pasteboard)
            json.member("session", read.session)
            json.member("item", read.item)
            json.key("accept")
            json.strings(read.accept)
            json.member("openInPlace", read.openInPlace)
            json.member("handoff", read.handoff)
            json.member("handoffFile", read.handoffFile)
        case .representation(let header):
            json = JSONObjectWriter(op: "representation")
            json.member("changeCount", header.changeCount)
            json.member("item", header.item)
            json.member("index", header.index)
            json.member("type", header.type)
            json.member("size", header.size)
            json.member("mimeType", header.mimeType)
            json.member("path", header.path)
            json.member("handoff", header.handoff)
        case .credit(let credit):
            json = JSONObjectWriter(op: "credit")
            json.member("bytes", credit.bytes)
        case .progress(let report):
            json = JSONObjectWriter(op: "progress")
            json.member("completed", report.completed)
            json.member("total", report.total)
        case .size(let size):
            json = JSONObjectWriter(op: "size")
            json.member("bytes", size.bytes)
        case .cancel:
            json = JSONObjectWriter(op: "cancel")
        case .error(let error):
            json = JSONObjectWriter(op: "error")
            json.member("code", error.code.rawValue)
            json.member("message", error.message)
        case .write(let write) where write.expire == nil:
            json = JSONObjectWriter(op: "write")
            json.member("pasteboard", write.pasteboard)
            json.key("items")
            json.output.append(UInt8(ascii: "["))
            for (index, item) in write.items.enumerated() {
                if index > 0 { json.output.append(UInt8(ascii: ",")) }
                Self.encode(item, into: &json)
            }
            json.output.append(UInt8(ascii: "]"))
            json.member("ifChangeCount", write.ifChangeCount)
        default:
            return nil
        }
        json.output.append(UInt8(ascii: "}"))
        return json.output
    }

    private static func encode(_ item: ItemInfo, into json: inout JSONObjectWriter) {
        json.output.append(contentsOf: #"{"representations":["#.utf8)
        for (index, representation) in item.representations.enumerated() {
            json.output.append(contentsOf: index == 0 ? #"{"type":"#.utf8 : #",{"type":"#.utf8)
            JSONObjectWriter.appendString(representation.type, to: &json.output)
            json.member("size", representation.size)
            json.member("mimeType", representation.mimeType)
            json.member("promise", representation.promise)
            json.member("file", representation.file)
            json.member("openInPlace", representation.openInPlace)
            json.member("lazy", representation.lazy)
            json.member("unavailable", representation.unavailable)
            json.output.append(UInt8(ascii: "}"))
        }
        json.output.append(UInt8(ascii: "]"))
        json.member("suggestedName", item.suggestedName)
        json.member("visibility", item.visibility?.rawValue)
        json.member("sensitive", item.sensitive)
        json.output.append(UInt8(ascii: "}"))
    }

    // MARK: Decoding

    /// The message the JSON `bytes` hold, when it is a hot message written simply (see
    /// `ScannedJSONObject`) and every member is as the Codable path requires; nil otherwise.
    static func decode(_ bytes: UnsafeRawBufferPointer) -> Message? {
        guard let fields = ScannedJSONObject(wholeDocument: bytes), let op = fields.string("op") else { return nil }
        switch op {
        case "hello":
            guard let version = fields.int("version"), let client = fields.string("client"),
                  let pid = fields.optional("pid", fields.int32), let app = fields.optional("app", fields.string)
            else { return nil }
            return .hello(Hello(version: version, client: client, pid: pid, app: app))
        case "welcome":
            guard let version = fields.int("version"), let daemon = fields.string("daemon"), let pid = fields.int32("pid"),
                  let maxFrameLength = fields.int("maxFrameLength"), let window = fields.int("window")
            else { return nil }
            var handoff: HandoffOffer?
            if !fields.isAbsentOrNull("handoff") {
                guard let offer = fields.object("handoff"), let path = offer.string("path"), let token = offer.string("token") else { return nil }
                handoff = HandoffOffer(path: path, token: token)
            }
            return .welcome(Welcome(version: version, daemon: daemon, pid: pid, maxFrameLength: maxFrameLength, window: window, handoff: handoff))
        case "ok":
            guard let changeCount = fields.optional("changeCount", fields.int) else { return nil }
            return .ok(OK(changeCount: changeCount))
        case "read":
            guard let pasteboard = fields.optional("pasteboard", fields.string), let session = fields.optional("session", fields.int),
                  let item = fields.int("item"), let accept = fields.strings("accept"),
                  let openInPlace = fields.optional("openInPlace", fields.bool), let handoff = fields.optional("handoff", fields.bool),
                  let handoffFile = fields.optional("handoffFile", fields.bool)
            else { return nil }
            return .read(ReadRequest(pasteboard: pasteboard, session: session, item: item, accept: accept, openInPlace: openInPlace, handoff: handoff,
                                     handoffFile: handoffFile))
        case "representation":
            guard let changeCount = fields.int("changeCount"), let item = fields.int("item"), let index = fields.int("index"),
                  let type = fields.string("type"), let size = fields.optional("size", fields.int),
                  let mimeType = fields.optional("mimeType", fields.string), let path = fields.optional("path", fields.string),
                  let handoff = fields.optional("handoff", fields.bool)
            else { return nil }
            return .representation(RepresentationHeader(changeCount: changeCount, item: item, index: index, type: type, size: size,
                                                        mimeType: mimeType, path: path, handoff: handoff))
        case "credit":
            return fields.int("bytes").map { .credit(Credit(bytes: $0)) }
        case "progress":
            guard let completed = fields.int("completed"), let total = fields.optional("total", fields.int) else { return nil }
            return .progress(ProgressReport(completed: completed, total: total))
        case "size":
            return fields.int("bytes").map { .size(SizeDeclaration(bytes: $0)) }
        case "cancel":
            return .cancel
        case "error":
            // An unknown code (from a newer peer) becomes `internal`; a missing message is the code.
            guard let code = fields.string("code"), let message = fields.optional("message", fields.string) else { return nil }
            return .error(ProtocolError(ErrorCode(rawValue: code) ?? .internal, message ?? code))
        case "write":
            guard let pasteboard = fields.string("pasteboard"), fields.isAbsentOrNull("expire"),
                  let ifChangeCount = fields.optional("ifChangeCount", fields.int)
            else { return nil }
            var items: [ItemInfo] = []
            let complete = fields.forEachObject(in: "items") { object in
                guard let item = Self.item(object) else { return false }
                items.append(item)
                return true
            }
            return complete ? .write(WriteRequest(pasteboard: pasteboard, items: items, ifChangeCount: ifChangeCount)) : nil
        default:
            return nil
        }
    }

    private static func item(_ fields: ScannedJSONObject) -> ItemInfo? {
        guard let suggestedName = fields.optional("suggestedName", fields.string),
              let visibility = fields.optional("visibility", { fields.string($0).flatMap(ItemVisibility.init(rawValue:)) }),
              let sensitive = fields.optional("sensitive", fields.bool)
        else { return nil }
        var representations: [RepresentationInfo] = []
        let complete = fields.forEachObject(in: "representations") { fields in
            guard let type = fields.string("type"), let size = fields.optional("size", fields.int),
                  let mimeType = fields.optional("mimeType", fields.string), let promise = fields.optional("promise", fields.int),
                  let file = fields.optional("file", fields.string), let openInPlace = fields.optional("openInPlace", fields.bool),
                  let lazy = fields.optional("lazy", fields.bool), let unavailable = fields.optional("unavailable", fields.bool)
            else { return false }
            representations.append(RepresentationInfo(type: type, size: size, mimeType: mimeType, promise: promise, file: file,
                                                      openInPlace: openInPlace, lazy: lazy, unavailable: unavailable))
            return true
        }
        guard complete else { return nil }
        return ItemInfo(representations: representations, suggestedName: suggestedName, visibility: visibility, sensitive: sensitive)
    }
}

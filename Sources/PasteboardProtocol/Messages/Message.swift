public import PasteboardJSON
public import PasteboardTypes

/// Control messages of protocol v1. On the wire each is one JSON object whose `op` member
/// names the case and whose other members are the payload's fields (see pasteboard-protocol(7)).
public enum Message: Sendable, Equatable {
    /// Client → daemon, request id 0, first frame of every connection.
    case hello(Hello)
    /// Daemon → client, request id 0: the handshake succeeded.
    case welcome(Welcome)
    /// Either way: the request (or, on id 0, the connection) failed. Terminal.
    case error(ProtocolError)
    /// Daemon → client: the request succeeded. Terminal.
    case ok(OK)
    /// Client → daemon: replace a pasteboard's items; the representations' bytes follow as data frames.
    case write(WriteRequest)
    /// Client → daemon: load one item's best representation for the accepted types.
    case read(ReadRequest)
    /// Daemon → client: the representation chosen for a `read`; its bytes follow as data frames.
    case representation(RepresentationHeader)
    /// Daemon → destination, on a `read` that said `handoff`: attach the hand-off socket now,
    /// for this load's bytes will come through it (the daemon waits up to a second for it).
    case attach
    /// Client → daemon: describe a pasteboard's items.
    case list(PasteboardRequest)
    /// Daemon → client: the answer to `list`. Terminal.
    case items(ItemsReply)
    /// Client → daemon: remove every item from a pasteboard (only if still at a given change count, when one is given).
    case clear(ClearRequest)
    /// Client → daemon: report every change of a pasteboard until cancelled.
    case watch(PasteboardRequest)
    /// Daemon → client: a watched pasteboard changed.
    case changed(ItemsReply)
    /// Either way: the receiver of a data stream allows `bytes` more payload bytes.
    case credit(Credit)
    /// Client → daemon: stop the request; answered by `error` with code `cancelled` unless it already ended.
    case cancel
    /// Daemon → client: how far a load has come (on a `read`, and on the source's `produce`).
    case progress(ProgressReport)
    /// Client → daemon: add the app's own type declarations to the daemon's registry, or replace its earlier ones.
    case declare(DeclareRequest)
    /// Client → daemon: describe the daemon's type declarations and where each came from.
    case types(PageRequest)
    /// Daemon → client: the answer to `types`. Terminal.
    case typeList(TypeList)
    /// Client → daemon: follow the daemon's type declarations: answered with `types-changed` at
    /// once and again each time they change, until `cancel`.
    case watchTypes
    /// Daemon → client, on a `watch-types`: the declarations' generation, now or after a change.
    case typesChanged(TypesChanged)
    /// Daemon → source, on a daemon request id: produce the bytes of one promised representation.
    case produce(ProduceRequest)
    /// Source → daemon, on a `produce`: the total byte count, before the first data frame (optional).
    case size(SizeDeclaration)
    /// Daemon → source, on a daemon request id, a notification: these promises are no longer on any pasteboard.
    case released(Released)
    /// Client → daemon: the client is about to disconnect; capture its promised data (within the budget), then answer `ok`.
    case relinquish
    /// Client → daemon: begin a drag session with items (eager bytes follow as in `write`).
    case drag(DragRequest)
    /// Client → daemon: add items to a drag session still in flight (eager bytes follow as in `write`).
    case add(AddItemsRequest)
    /// Daemon → client: a drag session as it now is. First answer to `drag`/`add` (not terminal);
    /// terminal answer to a `drop` that performed the drop.
    case session(SessionInfo)
    /// Client → daemon: describe the drag sessions in flight (or one of them).
    case sessions(SessionsRequest)
    /// Daemon → client: the answer to `sessions`. Terminal.
    case sessionList(SessionList)
    /// Client → daemon: a destination's proposal for a session: perform the drop (copy, move), refuse it (forbidden), or cancel the drag.
    case drop(DropRequest)
    /// Client → daemon: the destination that dropped a session has loaded what it wanted: end it.
    case finish(FinishRequest)
    /// Daemon → drag source, on its `drag`/`add`: a destination refused the drop (not terminal).
    case proposed(DestinationReport)
    /// Daemon → drag source, on its `drag`/`add`: a destination dropped the session and loads its items (not terminal).
    case dropped(DestinationReport)
    /// Daemon → drag source, on its `drag`/`add`: the session ended. Terminal.
    case ended(SessionEnd)
    /// Client → daemon: describe the general pasteboard's history, newest first.
    case history(PageRequest)
    /// Client → daemon: the history entries whose text contains some text.
    case historySearch(HistorySearchRequest)
    /// Daemon → client: the answer to `history` and `history-search`. Terminal.
    case historyList(HistoryList)
    /// Client → daemon: make a history entry the general pasteboard's content again.
    case historyRestore(HistoryRestoreRequest)
    /// Client → daemon: forget every history entry (the current content stays).
    case historyClear

    /// The `op` member's value for this message.
    public var op: String {
        switch self {
        case .hello: "hello"
        case .welcome: "welcome"
        case .error: "error"
        case .ok: "ok"
        case .write: "write"
        case .read: "read"
        case .representation: "representation"
        case .attach: "attach"
        case .list: "list"
        case .items: "items"
        case .clear: "clear"
        case .watch: "watch"
        case .changed: "changed"
        case .credit: "credit"
        case .cancel: "cancel"
        case .progress: "progress"
        case .declare: "declare"
        case .types: "types"
        case .typeList: "type-list"
        case .watchTypes: "watch-types"
        case .typesChanged: "types-changed"
        case .produce: "produce"
        case .size: "size"
        case .released: "released"
        case .relinquish: "relinquish"
        case .drag: "drag"
        case .add: "add"
        case .session: "session"
        case .sessions: "sessions"
        case .sessionList: "session-list"
        case .drop: "drop"
        case .finish: "finish"
        case .proposed: "proposed"
        case .dropped: "dropped"
        case .ended: "ended"
        case .history: "history"
        case .historySearch: "history-search"
        case .historyList: "history-list"
        case .historyRestore: "history-restore"
        case .historyClear: "history-clear"
        }
    }
}

/// The client's opening message.
public struct Hello: Sendable, Equatable, JSONObjectCoding {
    /// The protocol version the client speaks.
    public var version: Int
    /// A short name for logs ("pb", "gallery", an app name).
    public var client: String
    /// The client's process id (informational; the daemon trusts SO_PEERCRED instead).
    public var pid: Int32?
    /// The application the client belongs to (e.g. `com.example.gallery`); absent means `client`.
    /// Restricted drag sessions and local contexts are shared only within one application.
    public var app: String?

    public init(version: Int = ProtocolVersion.current, client: String, pid: Int32?, app: String? = nil) {
        self.version = version
        self.client = client
        self.pid = pid
        self.app = app
    }
}

extension Hello {
    public static var decodingStart: Hello { Hello(client: "", pid: nil) }

    public mutating func members<Members: JSONMembers>(_ json: inout Members) throws(Members.Failure) {
        try json.member("version", &version)
        try json.member("client", &client)
        try json.member("pid", &pid)
        try json.member("app", &app)
    }
}

/// The daemon's answer to `hello`.
public struct Welcome: Sendable, Equatable, JSONObjectCoding {
    /// The protocol version the daemon speaks.
    public var version: Int
    /// The daemon's name and release, for humans.
    public var daemon: String
    /// The daemon's process id.
    public var pid: Int32
    /// The largest length field the daemon accepts; clients accept frames up to this length too.
    public var maxFrameLength: Int
    /// The initial flow-control window for every data stream, in both directions.
    public var window: Int
    /// Where and how this connection may attach a hand-off socket, over which the daemon passes
    /// the sockets of direct transfers; absent when the daemon offers none.
    public var handoff: HandoffOffer?
    /// The daemon's machine id (see ``MachineID``), which the origins of its own changes carry.
    public var machine: String?
    /// The daemon's machine name, for humans (its host name unless configured).
    public var machineName: String?

    public init(version: Int = ProtocolVersion.current, daemon: String, pid: Int32, maxFrameLength: Int, window: Int, handoff: HandoffOffer? = nil,
                machine: String? = nil, machineName: String? = nil) {
        self.version = version
        self.daemon = daemon
        self.pid = pid
        self.maxFrameLength = maxFrameLength
        self.window = window
        self.handoff = handoff
        self.machine = machine
        self.machineName = machineName
    }
}

extension Welcome {
    public static var decodingStart: Welcome { Welcome(daemon: "", pid: 0, maxFrameLength: 0, window: 0) }

    public mutating func members<Members: JSONMembers>(_ json: inout Members) throws(Members.Failure) {
        try json.member("version", &version)
        try json.member("daemon", &daemon)
        try json.member("pid", &pid)
        try json.member("maxFrameLength", &maxFrameLength)
        try json.member("window", &window)
        try json.member("handoff", &handoff)
        try json.member("machine", &machine)
        try json.member("machineName", &machineName)
    }
}

extension Welcome {
    /// The largest `window` a client takes from a daemon: 1 TiB, the most `pasteboardd --window` sets.
    public static let maximumWindow = 1 << 40

    /// Why a client cannot work with the limits this `welcome` announces (a frame length outside
    /// 64 KiB...1 MiB, a window outside 64 KiB...1 TiB); nil when it can. A client sizes its
    /// frames and its credit from them, so it checks them before it relies on them.
    public var limitsFailure: String? {
        if !(ProtocolLimits.minimumMaxFrameLength...ProtocolLimits.defaultMaxFrameLength).contains(maxFrameLength) {
            return "welcome announces a maxFrameLength of \(maxFrameLength), outside \(ProtocolLimits.minimumMaxFrameLength) to \(ProtocolLimits.defaultMaxFrameLength)"
        }
        if !(ProtocolLimits.minimumWindow...Self.maximumWindow).contains(window) {
            return "welcome announces a window of \(window), outside \(ProtocolLimits.minimumWindow) to \(Self.maximumWindow)"
        }
        return nil
    }
}

/// The daemon's offer of descriptor hand-off (see pasteboard-protocol(7), HAND-OFF): a client
/// that connects to `path` and writes `token` receives, on that socket, its ends of the
/// transfers it asks to be handed off.
public struct HandoffOffer: Sendable, Equatable, JSONObjectCoding {
    /// The hand-off socket's absolute path.
    public var path: String
    /// This connection's secret: 32 lowercase hexadecimal characters.
    public var token: String

    public init(path: String, token: String) {
        self.path = path
        self.token = token
    }
}

extension HandoffOffer {
    public static var decodingStart: HandoffOffer { HandoffOffer(path: "", token: "") }

    public mutating func members<Members: JSONMembers>(_ json: inout Members) throws(Members.Failure) {
        try json.member("path", &path)
        try json.member("token", &token)
    }
}

/// A successful, terminal answer.
public struct OK: Sendable, Equatable, JSONObjectCoding {
    /// The pasteboard's change count after the request, when the request concerned one.
    public var changeCount: Int?
    public init(changeCount: Int? = nil) { self.changeCount = changeCount }
}

extension OK {
    public static var decodingStart: OK { OK() }

    public mutating func members<Members: JSONMembers>(_ json: inout Members) throws(Members.Failure) {
        try json.member("changeCount", &changeCount)
    }
}

/// A representation as described on the wire: its type and, when known, its size.
///
/// In a `write`, a representation is eager (its bytes follow as data frames), a promise
/// (`promise` set: the writer produces the bytes when a destination loads them), or a file
/// (`file` set: the daemon reads the file when a destination loads it).
public struct RepresentationInfo: Sendable, Equatable, JSONObjectCoding {
    /// A type identifier (UTI such as `public.png`, or `dyn.mime.<mime>`).
    public var type: String
    /// Byte count, when known.
    public var size: Int?
    /// The type's preferred MIME type, filled in by the daemon in `items`/`changed`.
    public var mimeType: String?
    /// In a `write`: the writer's own number for a promised representation, echoed in `produce`.
    public var promise: Int?
    /// In a `write`: an absolute path the daemon streams the bytes from at load time.
    public var file: String?
    /// In a `write` with `file`: a destination that asks may get the path instead of a copy.
    public var openInPlace: Bool?
    /// In `items`/`changed`: true when the bytes are produced by a live source at load time.
    public var lazy: Bool?
    /// In `items`/`changed`: true when the representation can no longer be loaded (its source is gone).
    public var unavailable: Bool?

    public init(
        type: String, size: Int? = nil, mimeType: String? = nil, promise: Int? = nil,
        file: String? = nil, openInPlace: Bool? = nil, lazy: Bool? = nil, unavailable: Bool? = nil
    ) {
        self.type = type
        self.size = size
        self.mimeType = mimeType
        self.promise = promise
        self.file = file
        self.openInPlace = openInPlace
        self.lazy = lazy
        self.unavailable = unavailable
    }
}

extension RepresentationInfo {
    public static var decodingStart: RepresentationInfo { RepresentationInfo(type: "") }

    public mutating func members<Members: JSONMembers>(_ json: inout Members) throws(Members.Failure) {
        try json.member("type", &type)
        try json.member("size", &size)
        try json.member("mimeType", &mimeType)
        try json.member("promise", &promise)
        try json.member("file", &file)
        try json.member("openInPlace", &openInPlace)
        try json.member("lazy", &lazy)
        try json.member("unavailable", &unavailable)
    }
}

/// Who may load an item's representations.
public enum ItemVisibility: String, Sendable, Equatable, Codable, JSONField {
    /// Any process of the user.
    case all
    /// Only the process that wrote the item.
    case ownProcess = "own-process"
}

/// An item as described on the wire: its representations in fidelity order (best first).
public struct ItemInfo: Sendable, Equatable, JSONObjectCoding {
    public var representations: [RepresentationInfo]
    /// A file name a destination may use when saving the item.
    public var suggestedName: String?
    /// Who may load the item; absent means `all`.
    public var visibility: ItemVisibility?
    /// True for a secret (a password): the daemon keeps it in memory only, never on disk or in
    /// logs. In a `write`, also implied by a representation of type
    /// `org.nspasteboard.ConcealedType`, or of type `x-kde-passwordManagerHint` whose value is
    /// `secret` (see ``SensitivityMarker``); in the daemon's answers it is set on every item the
    /// daemon treats as sensitive.
    public var sensitive: Bool?

    public init(representations: [RepresentationInfo], suggestedName: String? = nil, visibility: ItemVisibility? = nil, sensitive: Bool? = nil) {
        self.representations = representations
        self.suggestedName = suggestedName
        self.visibility = visibility
        self.sensitive = sensitive
    }

    /// True when the item is marked sensitive by its flag or by a representation of
    /// `org.nspasteboard.ConcealedType`. (A KDE hint's value is not in the description: the
    /// daemon reads it and sets the flag in its answers.)
    public var isSensitive: Bool {
        sensitive == true || representations.contains { SensitivityMarker.isConcealedType($0.type) }
    }
}

extension ItemInfo {
    public static var decodingStart: ItemInfo { ItemInfo(representations: []) }

    public mutating func members<Members: JSONMembers>(_ json: inout Members) throws(Members.Failure) {
        try json.member("representations", &representations)
        try json.member("suggestedName", &suggestedName)
        try json.member("visibility", &visibility)
        try json.member("sensitive", &sensitive)
    }
}

/// `write`: the items that replace the pasteboard's content.
public struct WriteRequest: Sendable, Equatable, JSONObjectCoding {
    /// The pasteboard's name.
    public var pasteboard: String
    /// Items in order; their representations' bytes follow as data frames, in the same order.
    public var items: [ItemInfo]
    /// Seconds after which the daemon clears the pasteboard, unless it changed meanwhile.
    public var expire: Double?
    /// Write only if the pasteboard's change count is still this; else the answer is `conflict`.
    public var ifChangeCount: Int?
    /// Set by a link (see pasteboard-protocol(7), LINKS): the change was made on another
    /// machine, at this origin. The daemon writes it only when it is later than the origin of
    /// the pasteboard's current content; else the answer is `superseded` and nothing changes.
    public var origin: ChangeOrigin?

    public init(pasteboard: String, items: [ItemInfo], expire: Double? = nil, ifChangeCount: Int? = nil, origin: ChangeOrigin? = nil) {
        self.pasteboard = pasteboard
        self.items = items
        self.expire = expire
        self.ifChangeCount = ifChangeCount
        self.origin = origin
    }
}

extension WriteRequest {
    public static var decodingStart: WriteRequest { WriteRequest(pasteboard: "", items: []) }

    public mutating func members<Members: JSONMembers>(_ json: inout Members) throws(Members.Failure) {
        try json.member("pasteboard", &pasteboard)
        try json.member("items", &items)
        try json.member("expire", &expire)
        try json.member("ifChangeCount", &ifChangeCount)
        try json.member("origin", &origin)
    }
}

/// `read`: which item, and the accepted types in the destination's preference order.
/// The item is on a pasteboard, or (with `session`) in a drag session this client dropped.
public struct ReadRequest: Sendable, Equatable, JSONObjectCoding {
    /// The pasteboard's name; absent when `session` is set.
    public var pasteboard: String?
    /// A drag session's id, instead of a pasteboard.
    public var session: Int?
    /// Index of the item, from 0.
    public var item: Int
    /// UTIs or MIME types, most preferred first; empty means the item's first representation.
    public var accept: [String]
    /// The destination takes a path instead of the bytes when the source allows opening in place.
    public var openInPlace: Bool?
    /// The destination attached a hand-off socket and takes a live source's bytes through a
    /// socket handed over it, when the source can send into one.
    public var handoff: Bool?
    /// With `handoff`: the destination also takes a descriptor of a regular file, the daemon's
    /// stored bytes, which it reads to its end like the socket (a client that only `recv`s a
    /// socket leaves it out). A large stored copy then reaches the destination without passing
    /// through the daemon.
    public var handoffFile: Bool?

    public init(pasteboard: String? = nil, session: Int? = nil, item: Int = 0, accept: [String] = [], openInPlace: Bool? = nil, handoff: Bool? = nil,
                handoffFile: Bool? = nil) {
        self.pasteboard = pasteboard
        self.session = session
        self.item = item
        self.accept = accept
        self.openInPlace = openInPlace
        self.handoff = handoff
        self.handoffFile = handoffFile
    }
}

extension ReadRequest {
    public static var decodingStart: ReadRequest { ReadRequest() }

    public mutating func members<Members: JSONMembers>(_ json: inout Members) throws(Members.Failure) {
        try json.member("pasteboard", &pasteboard)
        try json.member("session", &session)
        try json.member("item", &item)
        try json.member("accept", &accept)
        try json.member("openInPlace", &openInPlace)
        try json.member("handoff", &handoff)
        try json.member("handoffFile", &handoffFile)
    }
}

/// `representation`: the daemon's choice for a `read`.
public struct RepresentationHeader: Sendable, Equatable, JSONObjectCoding {
    /// The pasteboard's change count the data belongs to.
    public var changeCount: Int
    /// The item's index.
    public var item: Int
    /// The representation's index within the item (0 is the highest fidelity).
    public var index: Int
    /// The chosen representation's type.
    public var type: String
    /// Its byte count when known.
    public var size: Int?
    /// Its preferred MIME type when it has one.
    public var mimeType: String?
    /// Set when the file is opened in place: the destination reads this path; no data frames
    /// carry bytes (only the empty END frame follows).
    public var path: String?
    /// Set when the bytes come through a socket handed over the destination's hand-off socket:
    /// no data frames carry bytes; the final `progress` (the byte count) and the empty END
    /// frame follow once the source has sent everything.
    public var handoff: Bool?

    public init(changeCount: Int, item: Int, index: Int, type: String, size: Int?, mimeType: String?, path: String? = nil, handoff: Bool? = nil) {
        self.changeCount = changeCount
        self.item = item
        self.index = index
        self.type = type
        self.size = size
        self.mimeType = mimeType
        self.path = path
        self.handoff = handoff
    }
}

extension RepresentationHeader {
    public static var decodingStart: RepresentationHeader { RepresentationHeader(changeCount: 0, item: 0, index: 0, type: "", size: nil, mimeType: nil) }

    public mutating func members<Members: JSONMembers>(_ json: inout Members) throws(Members.Failure) {
        try json.member("changeCount", &changeCount)
        try json.member("item", &item)
        try json.member("index", &index)
        try json.member("type", &type)
        try json.member("size", &size)
        try json.member("mimeType", &mimeType)
        try json.member("path", &path)
        try json.member("handoff", &handoff)
    }
}

/// `clear`: the pasteboard, and optionally the change count it must still have.
public struct ClearRequest: Sendable, Equatable, JSONObjectCoding {
    public var pasteboard: String
    /// When set, the pasteboard is cleared only if its change count is still this value;
    /// otherwise nothing changes and `ok` carries the current change count.
    public var ifChangeCount: Int?
    /// Set by a link: the clear was made on another machine, at this origin (as in `write`).
    public var origin: ChangeOrigin?
    public init(pasteboard: String, ifChangeCount: Int? = nil, origin: ChangeOrigin? = nil) {
        self.pasteboard = pasteboard
        self.ifChangeCount = ifChangeCount
        self.origin = origin
    }
}

extension ClearRequest {
    public static var decodingStart: ClearRequest { ClearRequest(pasteboard: "") }

    public mutating func members<Members: JSONMembers>(_ json: inout Members) throws(Members.Failure) {
        try json.member("pasteboard", &pasteboard)
        try json.member("ifChangeCount", &ifChangeCount)
        try json.member("origin", &origin)
    }
}

/// `list`, `watch`: a request that names only a pasteboard.
public struct PasteboardRequest: Sendable, Equatable, JSONObjectCoding {
    public var pasteboard: String
    public init(pasteboard: String) { self.pasteboard = pasteboard }
}

extension PasteboardRequest {
    public static var decodingStart: PasteboardRequest { PasteboardRequest(pasteboard: "") }

    public mutating func members<Members: JSONMembers>(_ json: inout Members) throws(Members.Failure) {
        try json.member("pasteboard", &pasteboard)
    }
}

/// `history`, `types`: one page of a listing longer than a frame may be, from entry `start` on.
/// Both ops page the same way, so they share this payload (`HistoryRequest`, `TypesRequest`),
/// as `list` and `watch` share `PasteboardRequest`.
public struct PageRequest: Sendable, Equatable, JSONObjectCoding {
    /// The index of the first entry to describe (absent: 0). An answer holds as many entries as
    /// fit in one frame; when it says `more`, ask again from the next index.
    public var start: Int?

    public init(start: Int? = nil) { self.start = start }
}

extension PageRequest {
    public static var decodingStart: PageRequest { PageRequest() }

    public mutating func members<Members: JSONMembers>(_ json: inout Members) throws(Members.Failure) {
        try json.member("start", &start)
    }
}

/// `items` and `changed`: a pasteboard's change count and items.
public struct ItemsReply: Sendable, Equatable, JSONObjectCoding {
    public var pasteboard: String
    public var changeCount: Int
    public var items: [ItemInfo]
    /// Where and when the current content was written (absent for a pasteboard never written
    /// since the daemon's state began, and from daemons before links).
    public var origin: ChangeOrigin?
    /// Seconds until the content expires (`write` with `expire`), when it does.
    public var expiresIn: Double?

    public init(pasteboard: String, changeCount: Int, items: [ItemInfo], origin: ChangeOrigin? = nil, expiresIn: Double? = nil) {
        self.pasteboard = pasteboard
        self.changeCount = changeCount
        self.items = items
        self.origin = origin
        self.expiresIn = expiresIn
    }
}

extension ItemsReply {
    public static var decodingStart: ItemsReply { ItemsReply(pasteboard: "", changeCount: 0, items: []) }

    public mutating func members<Members: JSONMembers>(_ json: inout Members) throws(Members.Failure) {
        try json.member("pasteboard", &pasteboard)
        try json.member("changeCount", &changeCount)
        try json.member("items", &items)
        try json.member("origin", &origin)
        try json.member("expiresIn", &expiresIn)
    }
}

/// `credit`: more payload bytes the data sender may send on this request.
public struct Credit: Sendable, Equatable, JSONObjectCoding {
    public var bytes: Int
    public init(bytes: Int) { self.bytes = bytes }
}

extension Credit {
    public static var decodingStart: Credit { Credit(bytes: 0) }

    public mutating func members<Members: JSONMembers>(_ json: inout Members) throws(Members.Failure) {
        try json.member("bytes", &bytes)
    }
}

/// `progress`: bytes delivered so far of one load.
public struct ProgressReport: Sendable, Equatable, JSONObjectCoding {
    /// Bytes delivered to the destination so far.
    public var completed: Int
    /// The total byte count, when known.
    public var total: Int?
    public init(completed: Int, total: Int?) {
        self.completed = completed
        self.total = total
    }
}

extension ProgressReport {
    public static var decodingStart: ProgressReport { ProgressReport(completed: 0, total: nil) }

    public mutating func members<Members: JSONMembers>(_ json: inout Members) throws(Members.Failure) {
        try json.member("completed", &completed)
        try json.member("total", &total)
    }
}

/// `declare`: type declarations an app brings with it (the format of pasteboard-types(5)).
public struct DeclareRequest: Sendable, Equatable, JSONObjectCoding {
    public var types: [TypeDeclaration]
    public init(types: [TypeDeclaration]) { self.types = types }
}

extension DeclareRequest {
    public static var decodingStart: DeclareRequest { DeclareRequest(types: []) }

    public mutating func members<Members: JSONMembers>(_ json: inout Members) throws(Members.Failure) {
        try json.member("types", &types)
    }
}

/// `produce`: which promised representation the daemon needs, and why.
public struct ProduceRequest: Sendable, Equatable, JSONObjectCoding {
    /// The number the source gave the promise in its `write`.
    public var promise: Int
    /// The pasteboard holding the item (absent for an item of a drag session).
    public var pasteboard: String?
    /// The drag session holding the item, when it is not on a pasteboard.
    public var session: Int?
    /// The item's index on the pasteboard or in the session.
    public var item: Int
    /// The representation's type.
    public var type: String
    /// True when the daemon captures the data because the source relinquishes its promises.
    public var capture: Bool?
    /// The loading process's id, when a destination loads (informational).
    public var destinationPID: Int32?
    /// Set when the source sends the bytes into the socket handed over its hand-off socket
    /// instead of data frames; it then closes that socket and sends `size` (the bytes sent)
    /// and the empty END frame.
    public var handoff: Bool?

    public init(
        promise: Int, pasteboard: String?, session: Int? = nil, item: Int, type: String,
        capture: Bool? = nil, destinationPID: Int32? = nil, handoff: Bool? = nil
    ) {
        self.handoff = handoff
        self.promise = promise
        self.pasteboard = pasteboard
        self.session = session
        self.item = item
        self.type = type
        self.capture = capture
        self.destinationPID = destinationPID
    }
}

extension ProduceRequest {
    public static var decodingStart: ProduceRequest { ProduceRequest(promise: 0, pasteboard: nil, item: 0, type: "") }

    public mutating func members<Members: JSONMembers>(_ json: inout Members) throws(Members.Failure) {
        try json.member("promise", &promise)
        try json.member("pasteboard", &pasteboard)
        try json.member("session", &session)
        try json.member("item", &item)
        try json.member("type", &type)
        try json.member("capture", &capture)
        try json.member("destinationPID", &destinationPID)
        try json.member("handoff", &handoff)
    }
}

/// `size`: the byte count a source will produce.
public struct SizeDeclaration: Sendable, Equatable, JSONObjectCoding {
    public var bytes: Int
    public init(bytes: Int) { self.bytes = bytes }
}

extension SizeDeclaration {
    public static var decodingStart: SizeDeclaration { SizeDeclaration(bytes: 0) }

    public mutating func members<Members: JSONMembers>(_ json: inout Members) throws(Members.Failure) {
        try json.member("bytes", &bytes)
    }
}

/// `released`: promises of this connection that left every pasteboard (replaced or cleared).
public struct Released: Sendable, Equatable, JSONObjectCoding {
    public var promises: [Int]
    public init(promises: [Int]) { self.promises = promises }
}

extension Released {
    public static var decodingStart: Released { Released(promises: []) }

    public mutating func members<Members: JSONMembers>(_ json: inout Members) throws(Members.Failure) {
        try json.member("promises", &promises)
    }
}

#if canImport(Glibc)
import Glibc
#endif
import PasteboardX11

/// An X server, and every other client on it, played over a socket pair by a script: the
/// bridge's selection state machines (`SelectionReader`, `SelectionOwner`) run on a real
/// `X11Connection` against it, exactly as against Xvfb, while the script decides every answer:
/// well-formed replies, X errors, lies (an owner that is not there, a property of another
/// type, more bytes after than exist), silence, and events of its own (requests of other
/// clients, deletions, destructions, forged events, garbage).
///
/// It keeps the little state that makes a conversation go deep (interned atoms, window
/// properties, the selection's owner) and the owner's side of the two plays: `ReaderPlay` is
/// the owner the reader converts from, `OwnerPlay` the requestors the owner serves. Once the
/// script is spent it closes the connection, so no run waits on it.
final class ScriptedXServer {
    /// The client's end, for `X11Connection.attached`.
    let clientDescriptor: Int32
    let script: FuzzScript
    private let descriptor: Int32
    private var sequence: UInt16 = 0
    private var received: [UInt8] = []
    /// Interned atoms: the predefined ones (1...68), then the names the client asked for.
    private var atomsByName: [String: UInt32] = ScriptedXServer.predefined
    private var namesByAtom: [UInt32: String] = Dictionary(uniqueKeysWithValues: ScriptedXServer.predefined.map { ($1, $0) })
    /// Window properties: (window, property) → (type, format, data).
    var properties: [PropertyKey: StoredProperty] = [:]
    var selectionOwners: [UInt32: UInt32] = [:]
    /// The time the server stamps on events, moving on with each request.
    var time: UInt32 = 1000
    /// The major opcodes and first event the script gave the extensions (nil: absent).
    private(set) var xfixes: (major: UInt8, firstEvent: UInt8)?
    private var bigRequests: UInt8?

    static let xfixesOpcode: UInt8 = 140, bigRequestsOpcode: UInt8 = 141, xfixesFirstEvent: UInt8 = 87

    struct PropertyKey: Hashable {
        let window: UInt32
        let property: UInt32
    }

    struct StoredProperty {
        var type: UInt32
        var format: UInt8
        var data: [UInt8]
    }

    /// A request as the server reads it: the opcode, the header's data byte, and the fields
    /// after the length (the extended length word, when there is one, already skipped).
    struct Request {
        let opcode: UInt8
        let data: UInt8
        let body: [UInt8]

        func u32(_ offset: Int) -> UInt32 {
            guard offset + 4 <= body.count else { return 0 }
            return UInt32(body[offset]) | UInt32(body[offset + 1]) << 8 | UInt32(body[offset + 2]) << 16 | UInt32(body[offset + 3]) << 24
        }

        func u16(_ offset: Int) -> UInt16 {
            guard offset + 2 <= body.count else { return 0 }
            return UInt16(body[offset]) | UInt16(body[offset + 1]) << 8
        }

        func bytes(_ offset: Int, _ count: Int) -> [UInt8] {
            guard offset <= body.count else { return [] }
            return Array(body[offset..<min(body.count, offset + count)])
        }
    }

    /// The setup the client is attached with (the server's own view of it).
    static let setupRoot: UInt32 = 0x0000_0100
    static let clientIDBase: UInt32 = 0x0040_0000, clientIDMask: UInt32 = 0x001f_ffff

    init(script: FuzzScript) throws(X11Error) {
        var pair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
            throw .connectFailed(display: "scripted", reason: "socketpair failed: \(errno)")
        }
        descriptor = pair[0]
        clientDescriptor = pair[1]
        self.script = script
    }

    deinit { Glibc.close(descriptor) }

    /// Ends the conversation from the server's side: the client's next read sees the end.
    func hangUp() { shutdown(descriptor, Int32(SHUT_RDWR)) }

    // MARK: The conversation

    /// Answers the client until it closes its end or the script is spent (then the server
    /// closes its own). `play` answers the requests of the selection protocol, and takes the
    /// turns of the other clients whenever the client is quiet (waits for an event).
    func serve(_ play: some ServerPlay) {
        while !script.isSpent {
            switch nextRequest() {
            case .closed:
                return
            case .quiet:
                play.takeTurn(on: self)
            case let .request(request):
                time &+= 1
                if !answerCommon(request, play: play) { play.answer(request, on: self) }
            }
        }
        hangUp()
    }

    /// The requests every play answers the same way: atoms, extensions, windows, properties,
    /// the selection's owner, syncs. False when the play must answer it.
    private func answerCommon(_ request: Request, play: some ServerPlay) -> Bool {
        switch request.opcode {
        case 1, 2:  // CreateWindow, ChangeWindowAttributes: nothing to keep
            return true
        case 16:  // InternAtom
            let name = String(decoding: request.bytes(4, Int(request.u16(0))), as: UTF8.self)
            let onlyIfExists = request.data != 0
            if script.chance(6) { return error(code: 11, value: 0, request: request) }  // BadAlloc
            var atom = atomsByName[name] ?? 0
            if atom == 0, !onlyIfExists {
                atom = UInt32(69 + atomsByName.count)
                atomsByName[name] = atom
                namesByAtom[atom] = name
            }
            if script.chance(3) { atom = script.u32() }  // a lying server
            reply(u32s: [atom])
        case 17:  // GetAtomName
            guard let name = namesByAtom[request.u32(0)], !script.chance(4) else { return error(code: 5, value: request.u32(0), request: request) }
            let bytes = Array(name.utf8)
            reply(first: 0, fields: le16(UInt16(bytes.count)) + [UInt8](repeating: 0, count: 22), extra: bytes)
        case 18:  // ChangeProperty
            let key = PropertyKey(window: request.u32(0), property: request.u32(4))
            let format = request.body.count > 12 ? request.body[12] : 8
            let count = Int(request.u32(16)) * Int(max(1, format / 8))
            let data = request.bytes(20, count)
            let mode = request.data
            var stored = properties[key] ?? StoredProperty(type: request.u32(8), format: format, data: [])
            stored.type = request.u32(8)
            stored.format = format
            stored.data = mode == 0 ? data : (mode == 1 ? data + stored.data : stored.data + data)
            properties[key] = stored
            play.propertyChanged(key, by: request, on: self)
        case 19:  // DeleteProperty
            let key = PropertyKey(window: request.u32(0), property: request.u32(4))
            if properties.removeValue(forKey: key) != nil { event(propertyNotify: key, deleted: true) }
        case 20:  // GetProperty
            return getProperty(request, play: play)
        case 22:  // SetSelectionOwner
            selectionOwners[request.u32(4)] = request.u32(0)
        case 23:  // GetSelectionOwner
            let owner = play.owner(of: request.u32(0), on: self)
            reply(u32s: [owner])
        case 43:  // GetInputFocus
            reply(first: 1, fields: le32(Self.setupRoot))
        case 98:  // QueryExtension
            let name = String(decoding: request.bytes(4, Int(request.u16(0))), as: UTF8.self)
            let present = !script.chance(40)
            switch name {
            case "XFIXES" where present:
                xfixes = (Self.xfixesOpcode, Self.xfixesFirstEvent)
                reply(fields: [1, Self.xfixesOpcode, Self.xfixesFirstEvent, 150])
            case "BIG-REQUESTS" where present:
                bigRequests = Self.bigRequestsOpcode
                reply(fields: [1, Self.bigRequestsOpcode, 0, 0])
            default:
                reply(fields: [0, 0, 0, 0])
            }
        case Self.xfixesOpcode where request.data == 0:  // XFixesQueryVersion
            reply(u32s: [UInt32(script.pick(7)), 0])
        case Self.bigRequestsOpcode:  // BigReqEnable: a maximum the script picks, sometimes below the core one
            reply(u32s: [script.chance(16) ? UInt32(script.pick(70000)) : 0x3f_ffff])
        case Self.xfixesOpcode:  // SelectSelectionInput and the rest of XFIXES: no reply
            return true
        default:
            return false
        }
        return true
    }

    /// GetProperty: the stored property from the offset asked, deleted (with its PropertyNotify)
    /// when asked and read to its end; the script may answer another type or format, more
    /// bytes after than there are, or an error.
    private func getProperty(_ request: Request, play: some ServerPlay) -> Bool {
        let key = PropertyKey(window: request.u32(0), property: request.u32(4))
        if script.chance(4) { return error(code: 3, value: key.window, request: request) }  // BadWindow
        guard let stored = properties[key] else {
            reply(first: 0, fields: le32(0) + le32(0) + le32(0))
            return true
        }
        let offset = Int(request.u32(12)) * 4, length = Int(request.u32(16)) * 4
        let start = min(offset, stored.data.count)
        let end = min(stored.data.count, start + length)
        var data = Array(stored.data[start..<end])
        var after = UInt32(stored.data.count - end)
        var type = stored.type, format = stored.format
        if script.chance(3) { type = script.u32() }
        if script.chance(3) { after = script.u32() }
        if script.chance(3) { format = [0, 8, 16, 32, 7][script.pick(5)] }
        if format == 16, data.count % 2 == 1 { data.removeLast() }
        if format == 32 { data.removeLast(data.count % 4) }
        let items = format == 0 ? 0 : data.count / Int(max(1, format / 8))  // format 7: a lie, counted in bytes
        reply(first: format, fields: le32(type) + le32(after) + le32(UInt32(items)) + [UInt8](repeating: 0, count: 12), extra: data)
        if request.data != 0, end == stored.data.count {
            properties[key] = nil
            event(propertyNotify: key, deleted: true)
            play.propertyDeleted(key, on: self)
        }
        return true
    }

    // MARK: Reading requests

    private enum Next {
        case request(Request)
        /// The client wrote nothing for a moment: it waits for an answer or an event.
        case quiet
        case closed
    }

    private func nextRequest() -> Next {
        while true {
            if received.count >= 4 {
                let core = Int(received[2]) | Int(received[3]) << 8
                var headerBytes = 4, total = core * 4
                if core == 0, received.count >= 8 {
                    let units = Int(UInt32(received[4]) | UInt32(received[5]) << 8 | UInt32(received[6]) << 16 | UInt32(received[7]) << 24)
                    headerBytes = 8
                    total = units * 4
                }
                if core != 0 || received.count >= 8 {
                    guard total >= headerBytes else { return .closed }  // not a request our client writes
                    if received.count >= total {
                        let request = Request(opcode: received[0], data: received[1], body: Array(received[headerBytes..<total]))
                        received.removeFirst(total)
                        sequence &+= 1
                        return .request(request)
                    }
                }
            }
            var descriptorSet = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            // A request's rest comes at once; between requests a millisecond of silence means the
            // client waits.
            guard poll(&descriptorSet, 1, received.isEmpty ? 1 : 1000) > 0 else { return received.isEmpty ? .quiet : .closed }
            if !fill() { return .closed }
        }
    }

    private func fill() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return false }
        received.append(contentsOf: buffer[0..<count])
        return true
    }

    // MARK: Writing answers

    func write(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if count <= 0 { return }
            offset += count
        }
    }

    /// A reply to the request just read: `first` (the header's data byte), `fields` from byte 8,
    /// padded to 32, then `extra` padded to four.
    func reply(first: UInt8 = 0, fields: [UInt8] = [], extra: [UInt8] = []) {
        var fixed = Array(fields.prefix(24))
        fixed += [UInt8](repeating: 0, count: 24 - fixed.count)
        let padded = extra + [UInt8](repeating: 0, count: (4 - extra.count % 4) % 4)
        write([1, first] + le16(sequence) + le32(UInt32(padded.count / 4)) + fixed + padded)
    }

    func reply(u32s: [UInt32]) { reply(fields: u32s.flatMap(le32)) }

    /// An X error for the request just read (always true: the request is answered).
    @discardableResult
    func error(code: UInt8, value: UInt32, request: Request) -> Bool {
        write([0, code] + le16(sequence) + le32(value) + [0, 0, request.opcode] + [UInt8](repeating: 0, count: 21))
        return true
    }

    /// An error for some recent request (a late or stray one).
    func strayError() {
        let back = UInt16(script.pick(8))
        write([0, [3, 5, 8, 11][script.pick(4)]] + le16(sequence &- back) + le32(script.u32()) + [0, 0, 18] + [UInt8](repeating: 0, count: 21))
    }

    /// A 32-byte event with `code` (plus the SendEvent bit when `forged`) and `fields` from byte 4.
    func event(code: UInt8, detail: UInt8 = 0, fields: [UInt8], forged: Bool = false) {
        var bytes = [code | (forged ? 0x80 : 0), detail] + le16(sequence) + fields.prefix(28)
        bytes += [UInt8](repeating: 0, count: 32 - bytes.count)
        write(bytes)
    }

    func event(propertyNotify key: PropertyKey, deleted: Bool, forged: Bool = false) {
        event(code: 28, fields: le32(key.window) + le32(key.property) + le32(time) + [deleted ? 1 : 0], forged: forged)
    }

    func event(selectionNotify requestor: UInt32, selection: UInt32, target: UInt32, property: UInt32) {
        event(code: 31, fields: le32(time) + le32(requestor) + le32(selection) + le32(target) + le32(property))
    }

    /// XFIXES's SelectionNotify (when the client enabled it): the owner went away.
    func event(ownerGone window: UInt32, selection: UInt32, kind: UInt8) {
        guard let xfixes else { return }
        event(code: xfixes.firstEvent, detail: kind, fields: le32(window) + le32(0) + le32(selection) + le32(time) + le32(time))
    }

    /// Something the server might send that no one asked for: a reply to no request, an event
    /// of any code, a truncated packet (then the connection ends).
    func garbage() {
        switch script.pick(4) {
        case 0: write([1, 0] + le16(sequence &+ UInt16(script.pick(4))) + le32(UInt32(script.pick(3))) + [UInt8](repeating: 0, count: 24 + 4 * script.pick(3)))
        case 1: event(code: UInt8(2 + script.pick(60)), fields: (0..<7).flatMap { _ in le32(script.u32()) })
        case 2: strayError()
        default: write([script.byte(), script.byte(), script.byte()])
        }
    }

    // MARK: Atoms

    func atom(_ name: String) -> UInt32 {
        if let atom = atomsByName[name] { return atom }
        let atom = UInt32(69 + atomsByName.count)
        atomsByName[name] = atom
        namesByAtom[atom] = name
        return atom
    }

    func name(of atom: UInt32) -> String? { namesByAtom[atom] }

    private static let predefined: [String: UInt32] = [
        "PRIMARY": 1, "SECONDARY": 2, "ARC": 3, "ATOM": 4, "BITMAP": 5, "CARDINAL": 6, "INTEGER": 19, "STRING": 31, "WINDOW": 33,
    ]
}

/// What a play adds to the common server: the selection protocol from the other side.
protocol ServerPlay {
    /// A request the common server does not answer (ConvertSelection, SendEvent, ...).
    func answer(_ request: ScriptedXServer.Request, on server: ScriptedXServer)
    /// The owner the server reports for `selection`.
    func owner(of selection: UInt32, on server: ScriptedXServer) -> UInt32
    /// The client changed a property (ChangeProperty).
    func propertyChanged(_ key: ScriptedXServer.PropertyKey, by request: ScriptedXServer.Request, on server: ScriptedXServer)
    /// The client's GetProperty deleted a property.
    func propertyDeleted(_ key: ScriptedXServer.PropertyKey, on server: ScriptedXServer)
    /// The other clients' turn, while the client waits.
    func takeTurn(on server: ScriptedXServer)
}

func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xff), UInt8(value >> 8)] }
func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }

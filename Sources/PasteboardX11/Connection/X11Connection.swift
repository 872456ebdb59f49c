#if canImport(Glibc)
import Glibc
public import PasteboardSystem
#endif

/// A connection to an X server: setup, sequence numbers, replies matched to their requests,
/// and a queue of the events that arrived meanwhile.
///
/// One thread uses a connection at a time (it is not Sendable): the selection state machines
/// built on it are sequential code. Every wait has a deadline and ends on cancellation.
public final class X11Connection {
    public let display: DisplayName
    public let setup: SetupInfo
    /// Cancels this connection's waits from another thread.
    public let cancellation = X11Cancellation()

    private let socket: X11Socket
    /// The full (64-bit) sequence number of the last request sent; the wire carries its low 16 bits.
    private var lastSequence: UInt64 = 0
    /// Names of recent requests by sequence, so an X error names the request that caused it.
    private var recentNames = [(sequence: UInt64, name: String)](repeating: (0, ""), count: 1024)
    /// Requests whose replies have not been read yet, and the answers (a reply, or the X error
    /// that took its place) read while waiting for others: an error is the answer to the
    /// request that caused it, thrown by `reply(to:)` for that request only.
    private var awaitingReply: Set<UInt64> = []
    private var storedReplies: [UInt64: StoredAnswer] = [:]
    /// Requests whose answer nobody will read (the rest of a batch after one of it failed):
    /// their replies and errors are dropped when they come.
    private var forgotten: Set<UInt64> = []
    /// X errors of requests without a reply that were neither ignored nor are anyone's answer,
    /// oldest first, at most `uncheckedErrorLimit`: thrown by the next `sync`, never by an
    /// unrelated wait.
    private var uncheckedErrors: [X11ProtocolError] = []
    /// The most unchecked errors kept.
    static let uncheckedErrorLimit = 16
    /// The most requests a batch (`internAtoms`, `atomNames`) has in flight: far below the
    /// 65536 that 16-bit sequence numbers tell apart, so every reply matches its request.
    public static let batchLimit = 1024
    /// Requests whose X errors the caller expects and ignores (e.g. SendEvent to a window
    /// that may be gone).
    private var ignoredErrors: Set<UInt64> = []
    /// Told about each X error of a request sent `ignoringErrors` (with that request's full
    /// sequence number), instead of it being dropped unseen: how the selection owner learns that
    /// a requestor's window is gone (BadWindow) and abandons that transfer at once.
    public var ignoredErrorHandler: ((UInt64, X11ProtocolError) -> Void)?
    private var events: [X11Event] = []
    private var eventsStart = 0
    private var nextResource: UInt32 = 0
    /// Atoms and names looked up, both ways; emptied when over `atomCacheLimit` (the owners'
    /// lists name atoms of their choosing, so a cache kept whole would grow with each).
    private var atomsByName: [String: Atom] = [:]
    private var namesByAtom: [Atom: String] = [:]
    static let atomCacheLimit = 8192
    /// XFIXES, once `enableXFixes` found it.
    public private(set) var xfixes: ExtensionInfo?
    /// The longest request `send` writes, in bytes: the setup's maximum (at most 65535 units,
    /// about 256 KiB), or BIG-REQUESTS' larger one once `enableBigRequests` turned it on.
    public private(set) var maximumRequestBytes: Int
    /// Whether `enableBigRequests` asked the server yet (the answer stands for the connection).
    private var bigRequestsQueried = false

    /// The most events kept unread; older ones are dropped (a client that never reads its
    /// events must not grow without bound).
    public static let eventQueueLimit = 65536

    /// Connects to `displayName` (default: `DISPLAY` from `environment`), authorizing with the
    /// MIT-MAGIC-COOKIE-1 entry of the Xauthority file that matches the display.
    /// - Parameters:
    ///   - allowRemote: connect to a TCP display (a forwarded `ssh -X` display, say) too;
    ///     without it a non-local display is refused, as the bridge wants by default.
    ///   - timeout: how long to wait for the server's setup reply.
    public static func connect(
        displayName: String? = nil, environment: [String: String] = ProcessEnvironment.current(),
        allowRemote: Bool = false, timeout: Duration = .seconds(10)
    ) throws(X11Error) -> X11Connection {
        guard let text = displayName ?? environment["DISPLAY"] else { throw .badDisplayName("", reason: "DISPLAY is not set") }
        let display: DisplayName
        do { display = try DisplayName(text) } catch let error as X11Error { throw error } catch { throw .badDisplayName(text, reason: "\(error)") }
        let socket: X11Socket
        var family = Xauthority.familyLocal, address = Xauthority.hostname()
        switch display.transport {
        case let .unix(paths):
            var failures: [String] = []
            var connected: X11Socket?
            for path in paths {
                do throws(SocketError) {
                    connected = try X11Socket.connect(unix: path)
                    break
                } catch { failures.append("\(path): \(error.message)") }
            }
            guard let connected else { throw .connectFailed(display: text, reason: failures.joined(separator: "; ")) }
            socket = connected
        case let .tcp(host, port):
            guard allowRemote else {
                throw .connectFailed(display: text, reason: "it is not a local display (TCP to \(host):\(port), as ssh -X forwards); bridging it must be asked for explicitly")
            }
            do throws(SocketError) {
                (socket, family, address) = try X11Socket.connect(tcpHost: host, port: port)
            } catch { throw .connectFailed(display: text, reason: "\(host):\(port): \(error.message)") }
        }
        var entry: XauthorityEntry?
        if let path = Xauthority.path(environment: environment) {
            do {
                if let entries = try Xauthority.load(path: path) {
                    entry = Xauthority.bestEntry(in: entries, family: family, address: address, displayNumber: display.displayNumber)
                }
            } catch let error as X11Error { throw error } catch { throw .malformedAuthority(path: path, reason: "\(error)") }
        }
        let deadline = X11Deadline(after: timeout)
        let request = try ConnectionSetup.request(authorizationName: Array((entry?.name ?? "").utf8), authorizationData: entry?.data ?? [])
        try socket.write(request)
        let what = "the setup reply of \(text)"
        let header = try socket.read(8, deadline: deadline, cancellation: nil, what: what)
        let reply: SetupReply
        do {
            let rest = try socket.read(try ConnectionSetup.additionalBytes(header: header), deadline: deadline, cancellation: nil, what: what)
            reply = try ConnectionSetup.decodeReply(header + rest)
        } catch let error as X11Error { throw error } catch { throw .malformedFromServer("\(error)") }
        switch reply {
        case let .failed(reason):
            let cookie = entry == nil ? "no cookie was found for it in \(Xauthority.path(environment: environment) ?? "(no XAUTHORITY or HOME)")" : "a cookie was sent"
            throw .setupFailed(reason: "\(reason.trimmingTrailingNewlines) (\(cookie))")
        case let .authenticate(reason):
            throw .setupNeedsAuthentication(reason: reason)
        case let .success(info):
            return X11Connection(display: display, setup: info, socket: socket)
        }
    }

    init(display: DisplayName, setup: SetupInfo, socket: X11Socket) {
        self.display = display
        self.setup = setup
        self.socket = socket
        maximumRequestBytes = setup.maximumRequestBytes
    }

    /// Closes the socket; the server then destroys our windows and drops our selections.
    public func close() { socket.close() }

    /// A new resource id from the setup's base and mask.
    public func allocateID() throws(X11Error) -> UInt32 {
        let shift = UInt32(setup.resourceIDMask.trailingZeroBitCount)
        let value = nextResource << shift
        guard value & ~setup.resourceIDMask == 0, nextResource < UInt32.max else { throw .invalidArgument("resource ids exhausted") }
        nextResource += 1
        return setup.resourceIDBase | value
    }

    // MARK: Requests and replies

    /// Writes `request` and returns its sequence number. With `ignoringErrors`, an X error
    /// for it is dropped instead of thrown from a later wait.
    @discardableResult
    public func send(_ request: X11Request, ignoringErrors: Bool = false) throws(X11Error) -> UInt64 {
        guard request.byteCount <= maximumRequestBytes else {
            throw .invalidArgument("\(request.name) of \(request.byteCount) bytes is over the server's maximum of \(maximumRequestBytes)")
        }
        try socket.write(request.head, request.trailer, padding: request.trailerPadding)
        lastSequence += 1
        recentNames[Int(lastSequence % UInt64(recentNames.count))] = (lastSequence, request.name)
        if request.expectsReply { awaitingReply.insert(lastSequence) }
        if ignoringErrors { ignoredErrors.insert(lastSequence) }
        return lastSequence
    }

    /// Waits for the reply to request `sequence`; an X error for it is thrown, named by the request.
    public func reply(to sequence: UInt64, timeout: Duration = .seconds(10)) throws(X11Error) -> [UInt8] {
        let deadline = X11Deadline(after: timeout)
        while true {
            switch storedReplies.removeValue(forKey: sequence) {
            case .reply(let reply)?: return reply
            case .error(let error)?: throw .request(error)
            case nil: break
            }
            guard awaitingReply.contains(sequence) else { throw .invalidArgument("no reply is expected for request \(sequence)") }
            do {
                try readPacket(deadline: deadline, what: "the reply to \(name(of: sequence))")
            } catch {
                // A wait that failed (timeout, cancelled) leaves no answer for anyone to read.
                forget([sequence])
                throw error
            }
        }
    }

    /// Drops the answers of `sequences`, come or still to come: the rest of a batch once one of
    /// its requests failed, so neither its replies stay stored nor its errors reach a later wait.
    public func forget<Sequences: Sequence<UInt64>>(_ sequences: Sequences) {
        for sequence in sequences {
            storedReplies.removeValue(forKey: sequence)
            if awaitingReply.remove(sequence) != nil { forgotten.insert(sequence) }
        }
    }

    /// How many answers are stored unread, and how many awaited: bounded whatever a server or
    /// an owner's lists make us ask (for tests).
    public var pendingAnswerCount: (stored: Int, awaited: Int) { (storedReplies.count, awaitingReply.count) }

    /// Sends `request` and waits for its reply.
    public func roundTrip(_ request: X11Request, timeout: Duration = .seconds(10)) throws(X11Error) -> [UInt8] {
        try reply(to: send(request), timeout: timeout)
    }

    /// Waits until the server processed every request sent so far (throwing the X error of
    /// any of them), as XSync does.
    public func sync(timeout: Duration = .seconds(10)) throws(X11Error) {
        _ = try roundTrip(.getInputFocus(), timeout: timeout)
        if !uncheckedErrors.isEmpty { throw .request(uncheckedErrors.removeFirst()) }
    }

    // MARK: Events

    /// The first queued or arriving event that `matches` accepts (others stay queued), waiting
    /// until `deadline`; `what` names it for the timeout error.
    public func nextEvent(deadline: X11Deadline?, what: @autoclosure () -> String, where matches: (X11Event) -> Bool) throws(X11Error) -> X11Event {
        var scanned = eventsStart
        while true {
            while scanned < events.count {
                if matches(events[scanned]) { return takeEvent(at: scanned) }
                scanned += 1
            }
            try readPacket(deadline: deadline, what: what())
        }
    }

    /// The first queued or arriving event that `matches` accepts, or nil once `deadline` (nil:
    /// none) passes or `wakeup` is signalled: the wait of an event loop that has other work
    /// (the selection owner's transfers, fed from other tasks) and deadlines of its own, so
    /// neither is an error here. A wakeup is noticed at once, not at the next poll slice.
    public func waitForEvent(until deadline: ContinuousClock.Instant?, wakeup: X11Wakeup?, where matches: (X11Event) -> Bool) throws(X11Error) -> X11Event? {
        var scanned = eventsStart
        while true {
            while scanned < events.count {
                if matches(events[scanned]) { return takeEvent(at: scanned) }
                scanned += 1
            }
            switch try socket.waitReadable(until: deadline, wakeup: wakeup, cancellation: cancellation) {
            case .wakeup, .deadline: return nil
            case .socket:
                // The server writes whole packets: the rest of one that began arrives promptly.
                try readPacket(deadline: X11Deadline(after: .seconds(10)), what: "the rest of a packet from the X server")
            }
        }
    }

    /// Drops every queued event that `matches` accepts (stale notifications before a new transfer).
    public func discardEvents(where matches: (X11Event) -> Bool) {
        guard events[eventsStart...].contains(where: matches) else { return }
        events = events[eventsStart...].filter { !matches($0) }
        eventsStart = 0
    }

    /// How many events a client forged (sent with SendEvent where only the server may send
    /// them, or with bytes that do not decode) and were dropped.
    public private(set) var forgedEventCount = 0

    /// How many events wait unread.
    public var queuedEventCount: Int { events.count - eventsStart }

    private func takeEvent(at index: Int) -> X11Event {
        let event = events[index]
        if index == eventsStart {
            eventsStart += 1
            if eventsStart > 1024, eventsStart * 2 > events.count {
                events.removeFirst(eventsStart)
                eventsStart = 0
            }
        } else {
            events.remove(at: index)
        }
        return event
    }

    /// Reads one packet: stores a reply, queues an event, throws an X error unless ignored.
    private func readPacket(deadline: X11Deadline?, what: @autoclosure () -> String) throws(X11Error) {
        // Replies and generic events (35) carry a length; replies are bounded by what we ask
        // for (GetProperty reads at most a few MiB), so anything over 64 MiB is a broken server.
        let packet = try socket.readPacket(
            maximumExtra: 64 << 20, hasLength: { $0 == 1 || $0 & 0x7f == 35 },
            deadline: deadline, cancellation: cancellation, what: what())
        switch packet[0] {
        case 0:
            var error: X11ProtocolError
            do { error = try X11ProtocolError.decode(packet[...]) } catch let e as X11Error { throw e } catch { throw .malformedFromServer("\(error)") }
            let sequence = fullSequence(error.sequence)
            error.requestName = name(of: sequence)
            if forgotten.remove(sequence) != nil { return }
            if awaitingReply.remove(sequence) != nil {
                storedReplies[sequence] = .error(error)
            } else if ignoredErrors.remove(sequence) != nil {
                ignoredErrorHandler?(sequence, error)
            } else {
                if uncheckedErrors.count >= Self.uncheckedErrorLimit { uncheckedErrors.removeFirst() }
                uncheckedErrors.append(error)
            }
            pruneIgnored(below: sequence)
        case 1:
            let sequence = fullSequence(UInt16(packet[2]) | UInt16(packet[3]) << 8)
            if awaitingReply.remove(sequence) != nil { storedReplies[sequence] = .reply(packet) }
            forgotten.remove(sequence)
            pruneIgnored(below: sequence)
        case let code where code & 0x7f == 35:
            return  // a GenericEvent: none is selected, so none is handled
        case let code where code & 0x80 != 0 && Self.serverOnlyEvents(xfixes: xfixes).contains(code & 0x7f):
            // Sent by a client (SendEvent): only the server tells who owns a selection, which
            // windows went and which properties changed; any client could forge these.
            forgedEventCount += 1
        default:
            let event: X11Event
            do {
                event = try X11Event.decode(packet[...], xfixesFirstEvent: xfixes?.firstEvent)
            } catch {
                // Sent by a client (SendEvent): bytes another client chose. One that does not
                // decode (a ButtonPress of button 0, a crossing of an unknown mode) is dropped,
                // not taken for the server breaking the protocol, which would end our connection.
                if packet[0] & 0x80 != 0 {
                    forgedEventCount += 1
                    return
                }
                if let error = error as? X11Error { throw error }
                throw .malformedFromServer("\(error)")
            }
            if events.count - eventsStart >= Self.eventQueueLimit { _ = takeEvent(at: eventsStart) }
            events.append(event)
        }
    }

    /// The codes of the events only the server makes, which are dropped when a client sent
    /// them: DestroyNotify, PropertyNotify, SelectionClear and XFIXES's SelectionNotify; and the
    /// key, button, motion and crossing events (2 to 8), so a client cannot drop or cancel a
    /// drag by SendEvent: the drag follows the real pointer and keyboard. (SelectionNotify is
    /// sent by owners, SelectionRequest only asks, a window manager sends ConfigureNotify by
    /// ICCCM §4.1.5, and XDND's ClientMessages are sent by their nature.)
    private static func serverOnlyEvents(xfixes: ExtensionInfo?) -> [UInt8] {
        [2, 3, 4, 5, 6, 7, 8, 17, 28, 29] + (xfixes.map { [$0.firstEvent] } ?? [])
    }

    /// A reply to request N means the server finished every earlier request: their errors
    /// can no longer come.
    private func pruneIgnored(below sequence: UInt64) {
        if !ignoredErrors.isEmpty { ignoredErrors = ignoredErrors.filter { $0 > sequence } }
        if !forgotten.isEmpty { forgotten = forgotten.filter { $0 > sequence } }
    }

    /// The full sequence number of a packet: the latest request sent whose low 16 bits match.
    private func fullSequence(_ low: UInt16) -> UInt64 {
        let behind = UInt64(UInt16(truncatingIfNeeded: lastSequence) &- low)
        return lastSequence >= behind ? lastSequence - behind : UInt64(low)
    }

    private func name(of sequence: UInt64) -> String {
        let entry = recentNames[Int(sequence % UInt64(recentNames.count))]
        return entry.sequence == sequence ? entry.name : "#\(sequence)"
    }

    // MARK: Atoms and extensions

    /// The atoms for `names`, interned in one batch (all requests written before any reply
    /// is read: one round trip, as xcb allows) and cached.
    public func internAtoms(_ names: [String], timeout: Duration = .seconds(10)) throws(X11Error) -> [Atom] {
        trimAtomCache()
        var missing: [String] = []
        var seen: Set<String> = []
        for name in names where atomsByName[name] == nil && seen.insert(name).inserted { missing.append(name) }
        try inBatches(missing, timeout: timeout, request: { name throws(X11Error) in try X11Request.internAtom(name) }) { name, reply throws(X11Error) in
            let atom: Atom
            do { atom = try X11Reply.internAtom(reply) } catch let error as X11Error { throw error } catch { throw .malformedFromServer("\(error)") }
            atomsByName[name] = atom
            namesByAtom[atom] = name
        }
        return names.map { atomsByName[$0]! }
    }

    /// Sends one request per element of `items`, at most `batchLimit` in flight, and hands each
    /// reply to `take` in order. When one fails, the answers still to come of its batch are
    /// forgotten before the error is thrown.
    private func inBatches<Item>(
        _ items: [Item], timeout: Duration, request: (Item) throws(X11Error) -> X11Request, take: (Item, [UInt8]) throws(X11Error) -> Void
    ) throws(X11Error) {
        var start = 0
        while start < items.count {
            let batch = items[start..<min(items.count, start + Self.batchLimit)]
            var sequences: [UInt64] = []
            do {
                for item in batch { sequences.append(try send(try request(item))) }
                for (offset, item) in batch.enumerated() {
                    try take(item, try reply(to: sequences[offset], timeout: timeout))
                }
            } catch {
                forget(sequences)
                throw error
            }
            start = batch.endIndex
        }
    }

    private func trimAtomCache() {
        guard namesByAtom.count + atomsByName.count > Self.atomCacheLimit else { return }
        atomsByName.removeAll()
        namesByAtom.removeAll()
    }

    /// The atom for `name` (cached).
    public func atom(_ name: String) throws(X11Error) -> Atom { try internAtoms([name])[0] }

    /// The names of `atoms`, fetched in one batch and cached.
    public func atomNames(_ atoms: [Atom], timeout: Duration = .seconds(10)) throws(X11Error) -> [String] {
        trimAtomCache()
        var missing: [Atom] = []
        var seen: Set<Atom> = []
        for atom in atoms where namesByAtom[atom] == nil && seen.insert(atom).inserted { missing.append(atom) }
        try inBatches(missing, timeout: timeout, request: { atom throws(X11Error) in .getAtomName(atom) }) { atom, reply throws(X11Error) in
            let name: String
            do { name = try X11Reply.getAtomName(reply) } catch let error as X11Error { throw error } catch { throw .malformedFromServer("\(error)") }
            namesByAtom[atom] = name
            atomsByName[name] = atom
        }
        return atoms.map { namesByAtom[$0]! }
    }

    /// Queries XFIXES and negotiates its version (required before its other requests).
    @discardableResult
    public func enableXFixes(timeout: Duration = .seconds(10)) throws(X11Error) -> ExtensionInfo {
        if let xfixes { return xfixes }
        do {
            guard let info = try X11Reply.queryExtension(try roundTrip(X11Request.queryExtension(XFixes.name), timeout: timeout)) else {
                throw X11Error.extensionMissing(XFixes.name)
            }
            let version = try X11Reply.xfixesQueryVersion(try roundTrip(XFixes.queryVersion(majorOpcode: info.majorOpcode), timeout: timeout))
            guard version.major >= 1 else { throw X11Error.extensionMissing("\(XFixes.name) 1.0 (the server has \(version.major).\(version.minor))") }
            xfixes = info
            return info
        } catch let error as X11Error { throw error } catch { throw .malformedFromServer("\(error)") }
    }

    /// Turns on BIG-REQUESTS when the server has it (once per connection, as Xlib does at
    /// connection) and returns the longest request `send` now writes, in bytes: the extension's
    /// maximum, or the setup's when the server lacks it. Requests longer than 65535 units are
    /// encoded in the extended form (`X11Request.changeProperty` does it by itself).
    @discardableResult
    public func enableBigRequests(timeout: Duration = .seconds(10)) throws(X11Error) -> Int {
        if bigRequestsQueried { return maximumRequestBytes }
        do {
            guard let info = try X11Reply.queryExtension(try roundTrip(X11Request.queryExtension(BigRequests.name), timeout: timeout)) else {
                bigRequestsQueried = true
                return maximumRequestBytes
            }
            let units = try X11Reply.bigRequestsEnable(try roundTrip(BigRequests.enable(majorOpcode: info.majorOpcode), timeout: timeout))
            maximumRequestBytes = try Self.bigRequestBytes(units: units, coreUnits: setup.maximumRequestLength)
            bigRequestsQueried = true
            return maximumRequestBytes
        } catch let error as X11Error { throw error } catch { throw .malformedFromServer("\(error)") }
    }

    /// BigReqEnable's maximum in bytes, checked: the extension exists to raise the setup's
    /// limit, so a maximum below it is a broken server (not silently taken); a CARD32 of units
    /// is at most 16 GiB, which an Int of 64 bits holds (checked anyway, for narrower ones).
    public static func bigRequestBytes(units: UInt32, coreUnits: UInt16) throws(X11Error) -> Int {
        guard units >= UInt32(coreUnits) else {
            throw .malformedFromServer("BIG-REQUESTS gives a maximum request length of \(units) units, below the setup's \(coreUnits)")
        }
        let (bytes, overflow) = Int(exactly: units).map { $0.multipliedReportingOverflow(by: 4) } ?? (0, true)
        guard !overflow else { throw .malformedFromServer("BIG-REQUESTS gives a maximum request length of \(units) units, more bytes than an Int holds") }
        return bytes
    }

    /// Creates an unmapped InputOnly window on screen 0's root that selects PropertyChange.
    public func createWindow() throws(X11Error) -> WindowID {
        let window = WindowID(try allocateID())
        try send(.createInputOnlyWindow(window, parent: setup.root, eventMask: EventMask.propertyChange))
        return window
    }
}

/// A request's answer read while another was awaited.
private enum StoredAnswer {
    case reply([UInt8])
    case error(X11ProtocolError)
}

extension String {
    var trimmingTrailingNewlines: String {
        var text = self
        while text.last == "\n" || text.last == "\0" { text.removeLast() }
        return text
    }
}

import Synchronization

/// The owning side of an ICCCM selection (ICCCM §2.1–2.7): takes CLIPBOARD or PRIMARY with a
/// real server time, offers a list of targets, and answers each requestor — TARGETS,
/// TIMESTAMP, MULTIPLE and every offered target, whose bytes a provider streams only when
/// asked — until another client takes the selection.
///
/// Why a provider streaming into a writer: the bridge loads a representation from the daemon
/// only when a requestor asks for it, and it may be larger than memory should hold. Small data
/// (up to `sizing.chunkBytes`, which the server's maximum request length sets) goes in one
/// ChangeProperty; larger data through INCR, one chunk per deletion by the requestor, with
/// about two chunks buffered per transfer. Several transfers to different requestors run at
/// once, each provider in a task of its own, while one thread runs `run`.
///
/// Nothing a requestor does stops the owner: requests to its window are sent ignoring errors
/// (BadWindow of a window gone only ends that transfer), a requestor that exits mid-INCR is
/// noticed by its DestroyNotify, and one that stops reading is abandoned after `timeout`.
///
/// Use: `init`, `acquire()`, then `run` on a thread of its own until it returns (the selection
/// was lost, or `control.stop()`). One owner per connection while it runs: `run` consumes the
/// connection's selection, property and destroy events.
public final class SelectionOwner {
    /// Produces the bytes of `request.target` into the writer; returning ends the data,
    /// throwing refuses the conversion (or abandons it once INCR started).
    public typealias Provider = @Sendable (ContentRequest, SelectionChunkWriter) async throws -> Void

    /// What a provider is asked for.
    public struct ContentRequest: Equatable, Sendable {
        public let selection: String
        /// One of the offered targets, by name.
        public let target: String
        public let requestor: WindowID
    }

    /// Why `run` returned.
    public enum StopReason: Equatable, Sendable {
        /// Another client took the selection (and every started transfer ended).
        case lost
        /// `control.stop()` was called: the selection was given up.
        case stopped
    }

    /// Stops a running owner from another thread or task.
    public final class Control: Sendable {
        private let stopped = Atomic<Bool>(false)
        fileprivate let wakeup: X11Wakeup

        fileprivate init(wakeup: X11Wakeup) { self.wakeup = wakeup }

        /// Makes `run` give up the selection (if still ours), abandon its transfers and return
        /// `.stopped`, within a poll slice at most.
        public func stop() {
            stopped.store(true, ordering: .releasing)
            wakeup.signal()
        }

        public var isStopped: Bool { stopped.load(ordering: .acquiring) }
    }

    public let connection: X11Connection
    public let selection: String
    /// The offered targets in the owner's order (without the plumbing ones, which are always
    /// answered).
    public let targets: [String]
    /// The window that owns the selection.
    public let window: WindowID
    public let sizing: SelectionTransferSizing
    /// The bounded wait on a requestor: for it to delete each INCR chunk.
    public var timeout: Duration
    /// The bounded wait on the provider: for its first decision (finished within one chunk, or
    /// more), and for each next chunk once the requestor is ready.
    public var providerTimeout: Duration
    public let control: Control
    /// When we took the selection (nil before `acquire`): the TIMESTAMP answer.
    public private(set) var acquiredAt: X11Timestamp?
    /// Whether the selection is ours (false before `acquire` and after a SelectionClear).
    public private(set) var isOwner = false

    private let provider: Provider
    private let wakeup: X11Wakeup
    private let selectionAtom: Atom
    private let offered: [Atom]
    private let namesByAtom: [Atom: String]
    private let plumbing: (targets: Atom, timestamp: Atom, multiple: Atom, incr: Atom, atomPair: Atom, timestampProperty: Atom)
    private var replies: [PendingReply] = []
    private var transfers: [TransferKey: IncrementalTransfer] = [:]
    /// Requestor windows whose PropertyNotify and DestroyNotify we selected, with how many
    /// transfers use each.
    private var watched: [WindowID: Int] = [:]
    /// Windows an X error (BadWindow) showed gone, handled at the next turn of the loop.
    private var goneWindows: [(WindowID, String)] = []
    private var report: (SelectionOwnerEvent) -> Void = { _ in }

    /// How long a ready requestor waits for a whole chunk once some bytes are buffered.
    static let partialDelay: Duration = .milliseconds(20)

    /// The plumbing targets every owner answers itself.
    public static let plumbingTargets = ["TARGETS", "TIMESTAMP", "MULTIPLE", "INCR"]

    /// The most conversions streamed at once to one requestor window, and to all requestors
    /// together. Each buffers up to `sizing.bufferBytes` (2 MiB by default) while a requestor's
    /// ConvertSelection costs it nothing, so one client asking thousands of times into
    /// properties it never reads would otherwise hold gigabytes; the rest are refused the ICCCM
    /// way (property None), as an owner that cannot convert does, and may be asked again.
    public static let maximumStreamsPerRequestor = 4
    public static let maximumStreams = 16

    /// Creates the owner's window on `connection` (nothing is owned until `acquire`).
    /// - Parameters:
    ///   - selection: "CLIPBOARD" or "PRIMARY" (any selection name works).
    ///   - targets: the offered targets in order of preference (e.g. UTF8_STRING, image/png);
    ///     non-empty names, not the plumbing targets; duplicates are dropped.
    ///   - sizing: how data is cut; by default from the server's maximum request length, with
    ///     BIG-REQUESTS turned on when the server has it (chunks up to
    ///     `SelectionTransferSizing.defaultMaximumChunkBytes` instead of about 256 KiB).
    public init(
        connection: X11Connection, selection: String, targets: [String], sizing: SelectionTransferSizing? = nil,
        timeout: Duration = .seconds(5), providerTimeout: Duration = .seconds(30), provider: @escaping Provider
    ) throws(X11Error) {
        var seen: Set<String> = []
        let offeredNames = targets.filter { seen.insert($0).inserted }
        guard !selection.isEmpty else { throw .invalidArgument("a selection needs a name") }
        for name in offeredNames where name.isEmpty || Self.plumbingTargets.contains(name) {
            throw .invalidArgument("cannot offer the target \"\(name)\": \(name.isEmpty ? "it has no name" : "the owner answers it itself")")
        }
        self.connection = connection
        self.selection = selection
        self.targets = offeredNames
        if let sizing {
            self.sizing = sizing
        } else {
            self.sizing = try SelectionTransferSizing(maximumRequestBytes: connection.enableBigRequests())
        }
        self.timeout = timeout
        self.providerTimeout = providerTimeout
        self.provider = provider
        wakeup = try X11Wakeup()
        control = Control(wakeup: wakeup)
        let atoms = try connection.internAtoms([selection, "TARGETS", "TIMESTAMP", "MULTIPLE", "INCR", "ATOM_PAIR", "PASTEBOARD_TIMESTAMP"] + offeredNames)
        selectionAtom = atoms[0]
        plumbing = (atoms[1], atoms[2], atoms[3], atoms[4], atoms[5], atoms[6])
        offered = Array(atoms[7...])
        namesByAtom = Dictionary(zip(offered, offeredNames), uniquingKeysWith: { first, _ in first })
        window = try connection.createWindow()
    }

    // MARK: Ownership

    /// Takes the selection with a real server time (ICCCM §2.1: never CurrentTime): a
    /// zero-length append to a property of our window makes the server stamp a PropertyNotify,
    /// whose time SetSelectionOwner then uses; GetSelectionOwner confirms we own it.
    /// - Returns: the acquisition time (the TIMESTAMP answer).
    ///
    /// With `checked` (from `serverTime()`, read before the caller saw the selection unowned), the
    /// take is refused by the server itself when another client took the selection since: a
    /// SetSelectionOwner older than the selection's last change is ignored (protocol spec,
    /// SetSelectionOwner), so "take it only if nobody has it" cannot steal a copy made in between.
    @discardableResult
    public func acquire(at checked: X11Timestamp? = nil) throws(X11Error) -> X11Timestamp {
        let time: X11Timestamp
        if let checked { time = checked } else { time = try serverTime() }
        try connection.send(.setSelectionOwner(window, selection: selectionAtom, time: time))
        let owner = try currentOwner()
        guard owner == window else { throw .ownershipNotTaken(selection: selection, owner: owner) }
        acquiredAt = time
        isOwner = true
        return time
    }

    /// Who owns the selection now (None: nobody).
    public func currentOwner() throws(X11Error) -> WindowID {
        try X11Reply.getSelectionOwnerChecked(connection.roundTrip(.getSelectionOwner(selectionAtom), timeout: timeout))
    }

    /// A server time stamp, from a zero-length append to a property of our window.
    public func serverTime() throws(X11Error) -> X11Timestamp {
        try connection.serverTime(
            window: window, property: plumbing.timestampProperty, timeout: timeout, what: "the server's time stamp for taking \(selection)")
    }

    /// Gives the selection up (SetSelectionOwner None with our acquisition time, so a newer
    /// owner is never cleared) if it is still ours.
    public func release() throws(X11Error) {
        guard isOwner, let acquiredAt else { return }
        isOwner = false
        try connection.send(.setSelectionOwner(.none, selection: selectionAtom, time: acquiredAt))
        try connection.sync(timeout: timeout)
    }

    // MARK: Serving

    /// Answers requests until the selection is lost (and the transfers in flight ended) or
    /// `control.stop()`; `report` hears each served, refused and failed conversion and the
    /// loss, on this thread. Throws only for faults of our own connection (closed, cancelled);
    /// then every transfer is abandoned.
    @discardableResult
    public func run(report: @escaping (SelectionOwnerEvent) -> Void = { _ in }) throws(X11Error) -> StopReason {
        guard acquiredAt != nil else { throw .invalidArgument("SelectionOwner.run before acquire") }
        self.report = report
        connection.ignoredErrorHandler = { [weak self] _, error in
            // BadWindow names the window: a requestor that went away. Other errors of
            // requests to requestors (BadAlloc for a chunk) are left to the bounded waits.
            if error.code == 3 { self?.goneWindows.append((WindowID(error.badValue), error.description)) }
        }
        defer {
            connection.ignoredErrorHandler = nil
            abandonAll(reason: "the owner of \(selection) stopped")
            refuseQueuedRequests()
            self.report = { _ in }
        }
        while true {
            if control.isStopped {
                try release()
                return .stopped
            }
            for (window, reason) in goneWindows { abandon(requestor: window, reason: "its window is gone (\(reason))") }
            goneWindows = []
            try advance()
            if !isOwner, replies.isEmpty, transfers.isEmpty { return .lost }
            let deadline = (replies.map(\.deadline) + transfers.values.map(\.deadline) + transfers.values.compactMap(\.partialAt)).min()
            let ownWindow = window
            let event = try connection.waitForEvent(until: deadline, wakeup: wakeup) { event in
                switch event {
                case let .selectionRequest(request): request.owner == ownWindow
                case let .selectionClear(clear): clear.owner == ownWindow
                case let .propertyNotify(notify): notify.window != ownWindow
                case let .destroyNotify(notify): notify.window != ownWindow
                default: false
                }
            }
            guard let event else { continue }
            try handle(event)
        }
    }

    private func handle(_ event: X11Event) throws(X11Error) {
        switch event {
        case let .selectionClear(clear) where clear.selection == selectionAtom:
            if isOwner {
                isOwner = false
                report(.lost(time: clear.time))
            }
        case let .selectionRequest(request):
            try answer(request)
        case let .propertyNotify(notify) where !notify.isNewValue:
            let key = TransferKey(requestor: notify.window, property: notify.atom)
            guard var transfer = transfers[key], transfer.phase == .awaitingDelete else { return }
            transfer.phase = .readyForChunk
            transfer.deadline = .now + providerTimeout
            transfers[key] = transfer
        case let .destroyNotify(notify) where watched[notify.window] != nil:
            abandon(requestor: notify.window, reason: "the requestor's window was destroyed")
        default:
            break
        }
    }

    // MARK: Requests

    private func answer(_ request: X11Event.SelectionRequest) throws(X11Error) {
        // ICCCM §2.2: an obsolete requestor sends None as the property; use the target then.
        let property = request.property == .none ? request.target : request.property
        let key = TransferKey(requestor: request.requestor, property: property)
        if replies.contains(where: { $0.key == key }) || transfers[key] != nil {
            abandon(key: key, reason: "the requestor asked again into the same property", answering: false)
        }
        let targetName = name(of: request.target)
        func refuse(_ reason: String) throws(X11Error) {
            try connection.notify(request, property: .none)
            report(.refused(target: targetName, requestor: request.requestor, reason: reason))
        }
        guard isOwner, request.selection == selectionAtom, let acquiredAt else {
            return try refuse("we do not own \(name(of: request.selection)) (any more)")
        }
        // ICCCM §2.2: refuse a request whose time precedes our ownership (times wrap at 2³²).
        if request.time != currentTime, Int32(bitPattern: request.time &- acquiredAt) < 0 {
            return try refuse("the request's time \(request.time) precedes our ownership at \(acquiredAt)")
        }
        var multiple: [AtomPair]?
        var parts: [Part]
        var started = (requestor: streamCount(requestor: request.requestor), all: streamCount(requestor: nil))
        if request.target == plumbing.multiple {
            guard request.property != .none else { return try refuse("MULTIPLE needs a property naming the pairs") }
            let pairs: [AtomPair]
            do {
                let value = try X11Reply.getProperty(connection.roundTrip(
                    .getProperty(window: request.requestor, property: property, longLength: UInt32(SelectionReplyEncoding.maximumMultiplePairs * 2), delete: false),
                    timeout: timeout))
                pairs = try SelectionReplyEncoding.atomPairs(value, atomPair: plumbing.atomPair)
            } catch let error as X11Error {
                if case .request = error { return try refuse("its MULTIPLE pairs cannot be read: \(error)") }
                if case .malformedFromServer = error { return try refuse("\(error)") }
                throw error
            } catch { return try refuse("its MULTIPLE pairs cannot be read: \(error)") }
            // An empty list asks for nothing: refused, as a MULTIPLE without a property is.
            guard !pairs.isEmpty else { return try refuse("MULTIPLE with no pairs") }
            multiple = pairs
            parts = pairs.map { part(target: $0.target, property: $0.property, requestor: request.requestor, inMultiple: true, started: &started) }
        } else {
            parts = [part(target: request.target, property: property, requestor: request.requestor, inMultiple: false, started: &started)]
        }
        if multiple == nil, case let .refused(reason) = parts[0].content { return try refuse(reason) }
        replies.append(PendingReply(request: request, property: property, multiple: multiple, parts: parts, deadline: .now + providerTimeout))
    }

    /// The conversion of one target: plumbing answered at once, an offered target started in
    /// its provider's task, anything else refused.
    /// Counts each stream it starts in `started` (this requestor's, and all), and refuses a
    /// target once either reached its maximum.
    private func part(target: Atom, property: Atom, requestor: WindowID, inMultiple: Bool, started: inout (requestor: Int, all: Int)) -> Part {
        let name = name(of: target)
        func make(_ content: Part.Content) -> Part { Part(target: target, targetName: name, property: property, content: content) }
        if property == .none { return make(.refused(reason: "no property to put \(name) in")) }
        switch target {
        case plumbing.targets:
            let atoms = SelectionReplyEncoding.targets(offered: offered, targets: plumbing.targets, timestamp: plumbing.timestamp, multiple: plumbing.multiple)
            return make(.immediate(type: .atom, format: 32, runs: [ByteRun(SelectionReplyEncoding.atomList(atoms))]))
        case plumbing.timestamp:
            return make(.immediate(type: .integer, format: 32, runs: [ByteRun(SelectionReplyEncoding.timestamp(acquiredAt ?? currentTime))]))
        case plumbing.multiple:
            return make(.refused(reason: inMultiple ? "MULTIPLE inside MULTIPLE" : "MULTIPLE without pairs"))
        default:
            guard let targetName = namesByAtom[target] else { return make(.refused(reason: "\(name) is not offered")) }
            guard started.requestor < Self.maximumStreamsPerRequestor, started.all < Self.maximumStreams else {
                let limit = started.requestor >= Self.maximumStreamsPerRequestor
                    ? "\(Self.maximumStreamsPerRequestor) transfers to this requestor" : "\(Self.maximumStreams) transfers in all"
                return make(.refused(reason: "\(limit) are under way; ask again when one ended"))
            }
            started.requestor += 1
            started.all += 1
            let writer = SelectionChunkWriter(capacity: sizing.bufferBytes, wakeAbove: sizing.chunkBytes, wakeup: wakeup)
            let request = ContentRequest(selection: selection, target: targetName, requestor: requestor)
            let provider = provider
            let task = Task.detached {
                do {
                    try await provider(request, writer)
                    writer.finish()
                } catch {
                    writer.fail(error)
                }
            }
            return make(.stream(writer, task))
        }
    }

    /// The conversions streaming now in all, and to the requestor with the most: bounded by
    /// `maximumStreams` and `maximumStreamsPerRequestor` whatever requestors ask (checked by
    /// `pasteboard-fuzz x11-session` from the report closure).
    package var streamsUnderWay: (all: Int, busiestRequestor: Int) {
        let requestors = Set(replies.map(\.request.requestor)).union(transfers.keys.map(\.requestor))
        return (streamCount(requestor: nil), requestors.map { streamCount(requestor: $0) }.max() ?? 0)
    }

    /// The conversions streaming now (answered through INCR, or still deciding), to
    /// `requestor` or (nil) to anyone.
    private func streamCount(requestor: WindowID?) -> Int {
        let deciding = replies.reduce(0) { count, reply in
            guard requestor == nil || reply.request.requestor == requestor else { return count }
            return count + reply.parts.count { if case .stream = $0.content { true } else { false } }
        }
        return deciding + transfers.keys.count { requestor == nil || $0.requestor == requestor }
    }

    // MARK: Progress

    /// Answers every reply whose conversions are all decided, moves each INCR transfer on, and
    /// gives up the waits whose deadline passed.
    private func advance() throws(X11Error) {
        let now = ContinuousClock.now
        var index = 0
        var answered: [SelectionOwnerEvent] = []
        while index < replies.count {
            // Reported once the reply is out of `replies`: a report handler may look at the owner.
            if let events = try decide(&replies[index], now: now) {
                replies.remove(at: index)
                answered += events
            } else {
                index += 1
            }
        }
        for event in answered { report(event) }
        for key in Array(transfers.keys) { try step(key, now: now) }
    }

    /// Answers `reply` if each part is decided (or its deadline passed); the events to report
    /// when answered, nil when not yet.
    private func decide(_ reply: inout PendingReply, now: ContinuousClock.Instant) throws(X11Error) -> [SelectionOwnerEvent]? {
        var incremental: [Int: Int] = [:]  // part index → bytes buffered when INCR starts
        for (index, part) in reply.parts.enumerated() {
            guard case let .stream(writer, task) = part.content else { continue }
            let state = writer.snapshot
            if let failure = state.failure {
                reply.parts[index].content = .refused(reason: "its provider failed: \(failure)")
                continue
            }
            switch sizing.decide(buffered: state.buffered, finished: state.finished) {
            case .wait:
                guard now >= reply.deadline else { return nil }
                let reason = "its provider gave neither all the data nor a chunk's worth within \(providerTimeout)"
                writer.abandon(reason: reason)
                task.cancel()
                reply.parts[index].content = .refused(reason: reason)
            case .whole:
                reply.parts[index].content = .immediate(type: part.target, format: 8, runs: writer.take(upTo: sizing.chunkBytes))
            case .incremental:
                incremental[index] = state.buffered
            }
        }
        let requestor = reply.request.requestor
        if !incremental.isEmpty { try watch(requestor) }
        var pairs = reply.multiple
        var served: [SelectionOwnerEvent] = []
        for (index, part) in reply.parts.enumerated() {
            switch part.content {
            case let .immediate(type, format, runs):
                try connection.sendToRequestor(.changeProperty(window: requestor, property: part.property, type: type, format: format, runs: runs))
                served.append(.served(target: part.targetName, requestor: requestor, byteCount: runs.byteCount, incremental: false))
            case let .stream(writer, task):
                let bound = sizing.incrementalSizeBound(buffered: incremental[index] ?? 0)
                try connection.sendToRequestor(.changeProperty(window: requestor, property: part.property, type: plumbing.incr, format: 32, data: SelectionReplyEncoding.timestamp(bound)))
                let key = TransferKey(requestor: requestor, property: part.property)
                // Within `replies`' access (this reply is being decided): the old transfer ends
                // here, its report goes out with this reply's, and `replies` is not touched.
                if let old = transfers[key],
                   let ended = finish(key, .failed(target: old.targetName, requestor: requestor, reason: "the requestor asked again into the same property")) {
                    served.append(ended)
                }
                transfers[key] = IncrementalTransfer(
                    key: key, target: part.target, targetName: part.targetName, writer: writer, task: task, deadline: now + timeout)
                watched[requestor, default: 0] += 1
            case let .refused(reason):
                if reply.multiple != nil { pairs?[index].property = .none }
                served.append(.refused(target: part.targetName, requestor: requestor, reason: reason))
            }
        }
        if !incremental.isEmpty { watched[requestor, default: 0] -= 1 }  // the watch itself held one
        if !incremental.isEmpty { unwatchIfIdle(requestor) }
        if let pairs {
            try connection.sendToRequestor(.changeProperty(window: requestor, property: reply.property, type: plumbing.atomPair, format: 32, data: SelectionReplyEncoding.encodeAtomPairs(pairs)))
        }
        let refusedAlone: Bool
        if reply.multiple == nil, case .refused = reply.parts[0].content { refusedAlone = true } else { refusedAlone = false }
        try connection.notify(reply.request, property: refusedAlone ? .none : reply.property)
        return served
    }

    /// Moves one INCR transfer on: the next chunk when the requestor deleted the last one and
    /// the provider has bytes, the zero-length end when the provider finished, or gives up.
    private func step(_ key: TransferKey, now: ContinuousClock.Instant) throws(X11Error) {
        guard var transfer = transfers[key] else { return }
        switch transfer.phase {
        case .awaitingDelete:
            if now >= transfer.deadline {
                end(key, .failed(target: transfer.targetName, requestor: key.requestor, reason:
                    "the requestor did not read chunk \(transfer.chunksSent) (after \(transfer.bytesSent) bytes) within \(timeout)"))
            }
        case .readyForChunk:
            let state = transfer.writer.snapshot
            if let failure = state.failure {
                return end(key, .failed(target: transfer.targetName, requestor: key.requestor, reason: "its provider failed after \(transfer.bytesSent) bytes: \(failure)"))
            }
            // Whole chunks (the writer wakes us once one is buffered): a requestor's round trip
            // per chunk is the cost of INCR. Less only at the end, or when the provider has not
            // filled a chunk within `partialDelay` of the first bytes.
            let whole = state.buffered >= sizing.chunkBytes || (state.finished && state.buffered > 0)
            if state.buffered > 0, !whole, transfer.partialAt == nil {
                transfer.partialAt = now + Self.partialDelay
                transfers[key] = transfer
            } else if whole || (state.buffered > 0 && now >= transfer.partialAt ?? now) {
                transfer.partialAt = nil
                let chunk = transfer.writer.take(upTo: sizing.chunkBytes)
                try connection.sendToRequestor(.changeProperty(window: key.requestor, property: key.property, type: transfer.target, format: 8, runs: chunk))
                transfer.bytesSent += chunk.byteCount
                transfer.chunksSent += 1
                transfer.phase = .awaitingDelete
                transfer.deadline = now + timeout
                transfers[key] = transfer
            } else if state.finished {
                // The requestor deleted the last chunk: the zero-length property ends the data.
                try connection.sendToRequestor(.changeProperty(window: key.requestor, property: key.property, type: transfer.target, format: 8, data: []))
                end(key, .served(target: transfer.targetName, requestor: key.requestor, byteCount: transfer.bytesSent, incremental: true))
            } else if now >= transfer.deadline {
                end(key, .failed(target: transfer.targetName, requestor: key.requestor, reason:
                    "its provider gave no bytes within \(providerTimeout) after \(transfer.bytesSent)"))
            }
        }
    }

    /// Ends an INCR transfer, reporting `event`.
    private func end(_ key: TransferKey, _ event: SelectionOwnerEvent) {
        if let event = finish(key, event) { report(event) }
    }

    /// `end(_:_:)` without the report, which it returns (nil: no transfer had that key): for
    /// `decide`, which must not report while it holds `replies`.
    private func finish(_ key: TransferKey, _ event: SelectionOwnerEvent) -> SelectionOwnerEvent? {
        guard let transfer = transfers.removeValue(forKey: key) else { return nil }
        if case let .failed(_, _, reason) = event {
            transfer.writer.abandon(reason: reason)
            transfer.task.cancel()
        }
        watched[key.requestor, default: 1] -= 1
        unwatchIfIdle(key.requestor)
        return event
    }

    // MARK: Giving up

    /// Gives up the reply or transfer of `key`. A requestor still waiting for its reply is
    /// answered with None (the conversion refused), as ICCCM wants of every request: left
    /// unanswered, a requestor without a timeout of its own (xclip) would wait forever. Not
    /// when `answering` is false: the requestor's window is gone, or it asked again into the
    /// same property and waits for that answer instead.
    private func abandon(key: TransferKey, reason: String, answering: Bool = true) {
        if let index = replies.firstIndex(where: { $0.key == key }) {
            let reply = replies.remove(at: index)
            for part in reply.parts {
                if case let .stream(writer, task) = part.content {
                    writer.abandon(reason: reason)
                    task.cancel()
                }
                report(.failed(target: part.targetName, requestor: key.requestor, reason: reason))
            }
            // A failure to send it is the connection's, which the loop meets on its next turn.
            if answering { try? connection.notify(reply.request, property: .none) }
        }
        if let transfer = transfers[key] {
            end(key, .failed(target: transfer.targetName, requestor: key.requestor, reason: reason))
        }
    }

    /// Gives up everything for `requestor`, whose window is gone (nobody to answer).
    private func abandon(requestor: WindowID, reason: String) {
        let keys = Set(replies.map(\.key).filter { $0.requestor == requestor }).union(transfers.keys.filter { $0.requestor == requestor })
        for key in keys { abandon(key: key, reason: reason, answering: false) }
    }

    private func abandonAll(reason: String) {
        let keys = Set(replies.map(\.key)).union(transfers.keys)
        for key in keys { abandon(key: key, reason: reason) }
    }

    /// Refuses the requests still queued for our window when serving ends: those the server
    /// sent before it saw the selection leave us (our release, which syncs, or a newer owner),
    /// which no loop reads any more. Unanswered, their requestors would wait forever (a paste
    /// right after a paste-once source cleared the pasteboard hung so).
    private func refuseQueuedRequests() {
        let ownWindow = window
        while let event = try? connection.waitForEvent(until: .now, wakeup: nil, where: { event in
            if case let .selectionRequest(request) = event { request.owner == ownWindow } else { false }
        }), case let .selectionRequest(request) = event {
            guard (try? answer(request)) != nil else { return }  // refused: the selection is no longer ours
        }
    }

    // MARK: Requestor windows

    /// Selects PropertyChange (the INCR deletions) and StructureNotify (its destruction) on a
    /// requestor's window, once per window however many transfers it has.
    private func watch(_ requestor: WindowID) throws(X11Error) {
        if watched[requestor, default: 0] == 0 {
            try connection.sendToRequestor(.changeEventMask(requestor, eventMask: EventMask.propertyChange | EventMask.structureNotify))
        }
        watched[requestor, default: 0] += 1
    }

    private func unwatchIfIdle(_ requestor: WindowID) {
        guard let count = watched[requestor], count <= 0 else { return }
        watched[requestor] = nil
        _ = try? connection.sendToRequestor(.changeEventMask(requestor, eventMask: 0))
        connection.discardEvents { event in
            switch event {
            case let .propertyNotify(notify): notify.window == requestor
            case let .destroyNotify(notify): notify.window == requestor
            default: false
            }
        }
    }

    /// An atom's name for reports: ours from the cache, else asked (a bad atom from a
    /// requestor is named by its number).
    private func name(of atom: Atom) -> String {
        if let name = namesByAtom[atom] { return name }
        switch atom {
        case plumbing.targets: return "TARGETS"
        case plumbing.timestamp: return "TIMESTAMP"
        case plumbing.multiple: return "MULTIPLE"
        case selectionAtom: return selection
        default: return (try? connection.atomNames([atom]).first) ?? "atom \(atom.rawValue)"
        }
    }
}

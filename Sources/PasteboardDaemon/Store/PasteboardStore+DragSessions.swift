import PasteboardProtocol
import PasteboardSystem
import PasteboardTypes

/// Drag sessions: lifted by a source, grown while in flight, dropped by one destination,
/// finished by it; cancelled when the source abandons them, goes away, or they time out.
extension PasteboardStore {
    /// A participant's view of a session it joined: the session as it now is, and its events
    /// (`proposed`, `dropped`, then the terminal `ended`).
    struct Participation: Sendable {
        let info: SessionInfo
        let participant: Int
        let events: AsyncStream<Message>
    }

    /// Begins a session with `items` lifted by `source`.
    func beginSession(_ request: DragRequest, items: [StoredItem], source: any PromiseOwner) -> Participation {
        let id = nextSessionID
        nextSessionID += 1
        var allowed = DragOperation.allCases.filter { (request.allow ?? [.copy]).contains($0) }
        if allowed.isEmpty { allowed = [.copy] }
        sessions[id] = DragSessionRecord(
            id: id, source: source, allowed: allowed, restricted: request.restricted ?? false,
            localContext: request.localContext, desktop: request.desktop ?? false, desktopAt: request.desktopAt,
            zone: request.zone, zoneOwner: request.zone.flatMap { zones[$0]?.owner }, items: items
        )
        if let timeout = request.timeout, timeout > 0 {
            Task { [weak self] in
                try? await Task.sleep(for: SecondsLimit.duration(timeout))
                await self?.expire(id, after: timeout)
            }
        }
        let participation = join(id, as: source)
        if let zone = request.zone, sessions[id]?.zoneOwner == nil {
            // The zone closed while the drop's bytes arrived: nobody may drop this session.
            end(id, SessionEnd(outcome: .cancelled, message: "drop zone \(zone) closed before the drop reached it"))
        }
        return participation
    }

    /// Adds `items` from `client` to session `id` while it is in flight.
    func addItems(_ items: [StoredItem], to id: Int, from client: any PromiseOwner) throws(ProtocolError) -> Participation {
        var session = try visibleSession(id, to: client)
        guard session.state == .lifted else {
            throw ProtocolError(.noSuchSession, "drag session \(id) was already dropped; items can be added only while it is in flight")
        }
        session.items += items
        sessions[id] = session
        return join(id, as: client)
    }

    /// `client` stops listening to session `id` (it cancelled its request, or `wentAway`). When
    /// it began the session, the session ends cancelled: the source abandoned it.
    func leave(_ id: Int, participant: Int, client: any PromiseOwner, wentAway: Bool) {
        guard var session = sessions[id] else { return }
        if session.source === client {
            let reason = wentAway ? "its source, \(client), went away" : "\(client) abandoned the drag"
            end(id, SessionEnd(outcome: .cancelled, message: reason))
            return
        }
        session.participants[participant]?.events.finish()
        session.participants[participant] = nil
        sessions[id] = session
    }

    /// The sessions in flight `client` may see, oldest first.
    func sessionList(for client: any PromiseOwner) -> [SessionInfo] {
        sessions.keys.sorted().compactMap { id in
            let session = sessions[id]!
            return session.isVisible(to: client) ? session.info(for: client, registry: registry) : nil
        }
    }

    /// Session `id` (or, without one, the most recent lifted session visible to `client`) as `client` sees it.
    func sessionInfo(_ id: Int?, for client: any PromiseOwner) throws(ProtocolError) -> SessionInfo {
        try resolve(id, for: client).info(for: client, registry: registry)
    }

    /// A destination's proposal. `copy`/`move` perform the drop and answer `session` with the
    /// performed operation; `forbidden` tells the sources and leaves the session in flight;
    /// `cancel` ends it cancelled. Both refusals answer `ok`.
    func drop(_ request: DropRequest, by client: any PromiseOwner) throws(ProtocolError) -> Message {
        var session = try resolve(request.session, for: client)
        guard session.state == .lifted else {
            let dropper = session.dropper.map { " by \($0)" } ?? ""
            throw ProtocolError(.noSuchSession, "drag session \(session.id) was already dropped\(dropper)")
        }
        switch request.operation {
        case .forbidden:
            session.broadcast(.proposed(DestinationReport(operation: .forbidden, app: client.app, pid: client.pid)))
            return .ok(OK())
        case .cancel:
            session.broadcast(.proposed(DestinationReport(operation: .cancel, app: client.app, pid: client.pid)))
            end(session.id, SessionEnd(outcome: .cancelled, message: "\(client) cancelled the drag", destinationApp: client.app))
            return .ok(OK())
        case .copy, .move:
            let operation = try session.performedOperation(for: request.operation == .move ? .move : .copy)
            session.state = .dropped
            session.dropper = client
            session.operation = operation
            sessions[session.id] = session
            session.broadcast(.dropped(DestinationReport(
                operation: operation == .move ? .move : .copy, app: client.app, pid: client.pid
            )))
            return .session(session.info(for: client, registry: registry))
        }
    }

    /// The dropping destination ends the session: `finished` with the dropped operation, or `failed`.
    func finish(_ request: FinishRequest, by client: any PromiseOwner) throws(ProtocolError) {
        let session = try visibleSession(request.session, to: client)
        guard session.state == .dropped, session.dropper === client, let operation = session.operation else {
            throw ProtocolError(.permissionDenied, "only the destination that dropped drag session \(session.id) may finish it")
        }
        let sameApp = session.source.app == client.app
        if request.success {
            let performed = try Self.performed(operation, narrowedTo: request.operation, session: session.id)
            end(session.id, SessionEnd(
                outcome: .finished, operation: performed, destinationApp: client.app,
                localContext: sameApp ? request.localContext : nil
            ))
        } else {
            end(session.id, SessionEnd(
                outcome: .failed, message: request.message ?? "\(client) could not complete the drop",
                destinationApp: client.app, localContext: sameApp ? request.localContext : nil
            ))
        }
    }

    /// The operation a finished drop reports: the dropped one, or copy when a move's destination
    /// says it kept the originals. A move was never offered to a copy's destination: refused.
    private static func performed(_ dropped: DragOperation, narrowedTo performed: DragOperation?, session id: Int) throws(ProtocolError) -> DragOperation {
        guard let performed, performed != dropped else { return dropped }
        guard performed == .copy else {
            throw ProtocolError(.invalidArgument, "drag session \(id) was dropped as a copy; it cannot finish as a move")
        }
        return .copy
    }

    /// The items of session `id`, for a load by `reader`: only the destination that dropped it may load.
    func droppedItems(of id: Int, for reader: any PromiseOwner) throws(ProtocolError) -> [StoredItem] {
        let session = try visibleSession(id, to: reader)
        guard session.state == .dropped, session.dropper === reader else {
            throw ProtocolError(
                .permissionDenied,
                "the data of drag session \(id) is loadable only by the destination that dropped it"
            )
        }
        return session.items
    }

    /// Registers a load from session `id`, so that the session's end stops it.
    func attachLoad(_ control: TransferControl, to id: Int) throws(ProtocolError) {
        guard sessions[id] != nil else { throw ProtocolError(.noSuchSession, endedDescription(id)) }
        sessionLoads[id, default: [:]][ObjectIdentifier(control)] = control
    }

    /// Forgets a load from session `id`.
    func detachLoad(_ control: TransferControl, from id: Int) {
        sessionLoads[id]?[ObjectIdentifier(control)] = nil
    }

    /// Ends session `id` when it is still in flight `timeout` seconds after it began.
    private func expire(_ id: Int, after timeout: Double) {
        guard sessions[id]?.state == .lifted else { return }
        end(id, SessionEnd(outcome: .cancelled, message: "nobody dropped it within \(timeout.secondsPhrase)"))
    }

    /// A connection closed: sessions it began end cancelled, sessions it dropped end failed, and
    /// what it promised to other sessions becomes unavailable.
    func connectionGoneFromSessions(_ client: any PromiseOwner) {
        connectionGoneFromZones(client)
        for id in sessions.keys.sorted() {
            guard var session = sessions[id] else { continue }
            if session.source === client {
                end(id, SessionEnd(outcome: .cancelled, message: "its source, \(client), went away"))
                continue
            }
            if session.zoneOwner === client, session.state == .lifted {
                end(id, SessionEnd(outcome: .cancelled, message: "the destination waiting at drop zone \(session.zone ?? 0), \(client), went away"))
                continue
            }
            if session.dropper === client {
                end(id, SessionEnd(
                    outcome: .failed, message: "the destination, \(client), went away before finishing the drop",
                    destinationApp: client.app
                ))
                continue
            }
            for key in session.participants.keys where session.participants[key]?.client === client {
                session.participants[key]?.events.finish()
                session.participants[key] = nil
            }
            for itemIndex in session.items.indices {
                for index in session.items[itemIndex].representations.indices {
                    guard let promise = session.items[itemIndex].representations[index].promise, promise.owner === client else { continue }
                    session.items[itemIndex].representations[index].content = .unavailable(
                        "\(client) disconnected without handing over \(session.items[itemIndex].representations[index].type) (item \(itemIndex) of drag session \(id))"
                    )
                }
            }
            sessions[id] = session
        }
    }

    // MARK: - Internals

    private func join(_ id: Int, as client: any PromiseOwner) -> Participation {
        let participant = nextParticipantID
        nextParticipantID += 1
        let (events, continuation) = AsyncStream.makeStream(of: Message.self)
        sessions[id]!.participants[participant] = DragSessionRecord.Participant(client: client, events: continuation)
        return Participation(info: sessions[id]!.info(for: client, registry: registry), participant: participant, events: events)
    }

    /// Ends session `id`: every participant hears `end`, loads from it stop, its promises are released.
    private func end(_ id: Int, _ end: SessionEnd) {
        guard let session = sessions.removeValue(forKey: id) else { return }
        var summary = end.outcome.rawValue
        if let operation = end.operation { summary += " (\(operation.rawValue))" }
        if let message = end.message { summary += ": \(message)" }
        endedSessions[id] = summary
        endedSessions[id - 256] = nil
        for participant in session.participants.values {
            participant.events.yield(.ended(end))
            participant.events.finish()
        }
        for control in (sessionLoads.removeValue(forKey: id) ?? [:]).values {
            control.stop(ProtocolError(.noSuchSession, "drag session \(id) ended: \(summary)"))
        }
        notifyReleased(session.items)
    }

    private func resolve(_ id: Int?, for client: any PromiseOwner) throws(ProtocolError) -> DragSessionRecord {
        if let id { return try visibleSession(id, to: client) }
        guard let latest = sessions.keys.sorted().reversed().first(where: {
            sessions[$0]!.state == .lifted && sessions[$0]!.isVisible(to: client)
        }) else {
            throw ProtocolError(.noSuchSession, "no drag session is in flight")
        }
        return sessions[latest]!
    }

    private func visibleSession(_ id: Int, to client: any PromiseOwner) throws(ProtocolError) -> DragSessionRecord {
        guard let session = sessions[id] else { throw ProtocolError(.noSuchSession, endedDescription(id)) }
        guard session.isVisible(to: client) else {
            if let zone = session.zone {
                throw ProtocolError(.permissionDenied, "drag session \(id) is a desktop drop into another client's drop zone (\(zone))")
            }
            throw ProtocolError(.permissionDenied, "drag session \(id) is restricted to the application '\(session.source.app)'")
        }
        return session
    }

    private func endedDescription(_ id: Int) -> String {
        if let summary = endedSessions[id] { return "drag session \(id) already ended: \(summary)" }
        return "there is no drag session \(id)"
    }
}

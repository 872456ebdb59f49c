import Logging
import PasteboardProtocol

/// The requests of drag and drop: `drag` and `add` (their items assembled by the connection
/// as their bytes arrive), then `sessions`, `drop` and `finish`.
struct DragRequests: Sendable {
    let context: RequestContext

    /// Validates a `drag` (its files checked off the event loop); its assembly then collects the
    /// eager bytes (see `begin`). They are scratch: they last only as long as the session.
    nonisolated(nonsending) func assembly(for request: DragRequest, id: UInt32) async throws(ProtocolError) -> WriteAssembly {
        // The bridge showing the session is another application: it could never see a restricted one.
        if request.desktop == true, request.restricted == true {
            throw ProtocolError(.invalidArgument, "a session restricted to its application cannot be shown on the desktop: give 'desktop' or 'restricted', not both")
        }
        if let point = request.desktopAt {
            guard request.desktop == true else {
                throw ProtocolError(.invalidArgument, "'desktopAt' places the session's handle on the desktop: give it with 'desktop': true")
            }
            let range = 0...DesktopPoint.largestCoordinate
            guard range.contains(point.x), range.contains(point.y) else {
                throw ProtocolError(.invalidArgument, "'desktopAt' must be 0 to \(DesktopPoint.largestCoordinate) in x and y, not \(point.x),\(point.y)")
            }
        }
        if let zone = request.zone, !(await context.store.hasZone(zone)) {
            throw ProtocolError(.invalidArgument, "there is no drop zone \(zone) (its destination stopped waiting)")
        }
        let files = await WriteAssembly.checkFiles(of: request.items)
        return try WriteAssembly(.drag(request), items: request.items, source: context.client, registry: context.store.registry,
                                 configuration: context.configuration, place: context.store.scratchSpoolPlace, files: files,
                                 sendCredit: context.creditSender(for: id))
    }

    /// Validates an `add` (its files checked off the event loop); its assembly then collects the
    /// eager bytes (see `add`).
    nonisolated(nonsending) func assembly(for request: AddItemsRequest, id: UInt32) async throws(ProtocolError) -> WriteAssembly {
        let files = await WriteAssembly.checkFiles(of: request.items)
        return try WriteAssembly(.add(session: request.session), items: request.items, source: context.client, registry: context.store.registry,
                                 configuration: context.configuration, place: context.store.scratchSpoolPlace, files: files,
                                 sendCredit: context.creditSender(for: id))
    }

    /// A `drag`'s items have all arrived: begins the session and follows it.
    nonisolated(nonsending) func begin(_ request: DragRequest, items: [StoredItem], id: UInt32) async throws {
        var request = request
        request.timeout = request.timeout ?? context.configuration.sessionTimeout
        if request.zone != nil {
            // A drop into a zone is for its destination alone, which sees it at once.
            request.timeout = min(request.timeout ?? .infinity, PasteboardStore.zoneSessionTimeout)
        }
        // `desktop-drags`: every session a destination of the desktop may see is shown there,
        // unless its source said otherwise (a restricted one, a desktop drop into a zone).
        if request.desktop == nil, context.configuration.desktopDrags, request.restricted != true, request.zone == nil {
            request.desktop = true
        }
        let participation = await context.store.beginSession(request, items: items, source: context.client)
        context.logger.info("drag session began", metadata: [
            "session.id": "\(participation.info.id)", "items": "\(items.count)",
            "allow": "\(participation.info.allow.map(\.rawValue))",
        ])
        follow(participation, id: id)
    }

    /// An `add`'s items have all arrived: adds them to the session and follows it; when they
    /// cannot be added, their promises are released at once.
    nonisolated(nonsending) func add(_ items: [StoredItem], to session: Int, id: UInt32) async throws {
        do {
            let participation = try await context.store.addItems(items, to: session, from: context.client)
            context.logger.info("items added to drag session", metadata: ["session.id": "\(session)", "items": "\(items.count)"])
            follow(participation, id: id)
        } catch {
            await context.store.notifyReleased(items)
            try await context.fail(error, on: id)
        }
    }

    /// `sessions`: one session, or every session in flight the client may see; with `watch`,
    /// that list now and again each time it changes, until the client cancels.
    nonisolated(nonsending) func sessions(_ request: SessionsRequest, id: UInt32) async throws {
        let store = context.store
        if request.watch == true {
            guard request.session == nil else {
                return try await context.fail(ProtocolError(.invalidArgument, "'watch' follows all sessions: give no 'session'"), on: id)
            }
            if let zone = request.zone {
                let opened: Int
                do throws(ProtocolError) {
                    try DropZoneRecord.validate(zone)
                    opened = try await store.openZone(zone, for: context.client)
                } catch {
                    return try await context.fail(error, on: id)
                }
                return watchSessions(id: id, zone: opened)
            }
            return watchSessions(id: id, zone: nil)
        }
        if request.zone != nil {
            return try await context.fail(ProtocolError(.invalidArgument, "a drop zone is kept by a watch: give 'zone' with 'watch': true"), on: id)
        }
        do {
            let sessions = if let session = request.session {
                [try await store.sessionInfo(session, for: context.client)]
            } else {
                await store.sessionList(for: context.client)
            }
            try await context.answer(.sessionList(SessionList(sessions: sessions)), on: id)
        } catch let error as ProtocolError {
            try await context.fail(error, on: id)
        }
    }

    /// The sessions the client may see and the drop zones, now and after each change that shows
    /// in its list. A watch with `zone` keeps that zone open until it ends.
    private func watchSessions(id: UInt32, zone: Int?) {
        let (store, client) = (context.store, context.client)
        // Listen first, then read: a change in between is told, and an unchanged list not sent again.
        let (changes, stopListening) = store.sessionChanges.listen()
        let stop: @Sendable () -> Void = {
            stopListening()
            if let zone { Task { await store.closeZone(zone) } }
        }
        context.watch(id: id, named: "sessions watch", stop: stop) { writer in
            var last: SessionList?
            var iterator = changes.makeAsyncIterator()
            repeat {
                let zones = await store.zoneList()
                let list = SessionList(sessions: await store.sessionList(for: client), zones: zones.isEmpty ? nil : zones, zone: zone)
                if list != last {
                    last = list
                    try await writer.send(.sessionList(list), on: id)
                }
            } while await iterator.next() != nil
        }
    }

    /// `drop`: a destination's proposal (see `PasteboardStore.drop`).
    nonisolated(nonsending) func drop(_ request: DropRequest, id: UInt32) async throws {
        do {
            let reply = try await context.store.drop(request, by: context.client)
            context.logger.info("drag session proposal", metadata: [
                "session.id": "\(request.session.map(String.init) ?? "current")", "operation": "\(request.operation.rawValue)",
            ])
            try await context.answer(reply, on: id)
        } catch let error as ProtocolError {
            try await context.fail(error, on: id)
        }
    }

    /// `finish`: the dropping destination ends the session.
    nonisolated(nonsending) func finish(_ request: FinishRequest, id: UInt32) async throws {
        do {
            try await context.store.finish(request, by: context.client)
            context.logger.info("drag session finished", metadata: ["session.id": "\(request.session)", "success": "\(request.success)"])
            try await context.answer(.ok(OK()), on: id)
        } catch let error as ProtocolError {
            try await context.fail(error, on: id)
        }
    }

    /// Answers a `drag`/`add` with the session, then forwards its events until the terminal `ended`.
    /// The client's `cancel` leaves the session (and abandons it, for the source that began it).
    private func follow(_ participation: PasteboardStore.Participation, id: UInt32) {
        let (store, client, requests, writer) = (context.store, context.client, context.requests, context.writer)
        let session = participation.info.id
        _ = requests.reserve(id, window: nil, stop: {
            // Whether the client cancelled or went away is decided now, in the order its frames
            // came, not when the store gets to it (by then a client that cancelled and quit is gone).
            let wentAway = client.isDisconnected
            Task { await store.leave(session, participant: participation.participant, client: client, wentAway: wentAway) }
        })
        requests.attach(Task(executorPreference: context.executor) {
            do {
                try await writer.send(.session(participation.info), on: id)
                for await event in participation.events {
                    if case .ended = event { requests.remove(id) }
                    try await writer.send(event, on: id)
                }
            } catch {}
            if requests.contains(id) {
                // Left without an end (cancelled): the request still owes its terminal answer.
                requests.remove(id)
                try? await writer.send(.ended(SessionEnd(outcome: .cancelled, message: "left drag session \(session)")), on: id)
            }
        }, to: id)
    }
}

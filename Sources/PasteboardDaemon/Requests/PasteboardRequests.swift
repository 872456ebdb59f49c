import Logging
import NIOCore
import PasteboardProtocol

/// The requests about named pasteboards: `write` (its items assembled by the connection as
/// their bytes arrive), `list`, `clear`, `read` and `watch`.
struct PasteboardRequests: Sendable {
    let context: RequestContext

    /// Validates a `write` (its files checked off the event loop); its assembly then collects
    /// the eager bytes (see `completeWrite`).
    nonisolated(nonsending) func assembly(for request: WriteRequest, id: UInt32) async throws(ProtocolError) -> WriteAssembly {
        let store = context.store
        let files = await WriteAssembly.checkFiles(of: request.items)
        return try WriteAssembly(request, source: context.client, registry: store.registry, configuration: context.configuration,
                                 place: store.spoolPlace(forPasteboard: request.pasteboard), files: files,
                                 sendCredit: context.creditSender(for: id))
    }

    /// A write's items have all arrived: replaces the pasteboard's content and answers with its
    /// change count. Promises of a write that failed are released at once.
    nonisolated(nonsending) func completeWrite(
        _ items: [StoredItem], of name: String, expire: Double?, ifChangeCount: Int?, origin: ChangeOrigin?, id: UInt32
    ) async throws {
        do {
            let changeCount = try await context.store.replaceItems(
                of: name, with: items, ifChangeCount: ifChangeCount, conflict: .fail, recordsHistory: expire == nil,
                expiringAfter: expire, origin: origin)
            // Debug: one line per copy, which a shell loop makes thousands of.
            context.logger.debug("pasteboard written", metadata: [
                "pasteboard": "\(name)", "items": "\(items.count)", "changeCount": "\(changeCount)",
                "sensitive": "\(items.contains(where: \.isSensitive))",
            ])
            try await context.answer(.ok(OK(changeCount: changeCount)), on: id)
        } catch let error as ProtocolError {
            // A linked change that lost to a later one is how links converge, not a failure.
            if error.code == .superseded {
                context.logger.debug("linked change superseded", metadata: ["pasteboard": "\(name)", "reason": "\(error.message)"])
            } else {
                context.logger.error("pasteboard not written", metadata: ["pasteboard": "\(name)", "reason": "\(error.message)"])
            }
            await context.store.notifyReleased(items)
            try await context.fail(error, on: id)
        }
    }

    /// `list`: the pasteboard's items as metadata.
    nonisolated(nonsending) func list(_ request: PasteboardRequest, id: UInt32) async throws {
        if try await context.refuseInvalidName(request.pasteboard, on: id) { return }
        await waitForTheBridge(request.pasteboard)
        try await context.answer(.items(await context.store.summary(of: request.pasteboard)), on: id)
    }

    /// `clear`: empties the pasteboard (unless it changed since `ifChangeCount`).
    nonisolated(nonsending) func clear(_ request: ClearRequest, id: UInt32) async throws {
        if try await context.refuseInvalidName(request.pasteboard, on: id) { return }
        do {
            let changeCount = try await context.store.replaceItems(
                of: request.pasteboard, with: [], ifChangeCount: request.ifChangeCount, conflict: request.origin == nil ? .ignore : .fail,
                origin: request.origin)
            context.logger.info("pasteboard cleared", metadata: ["pasteboard": "\(request.pasteboard)", "changeCount": "\(changeCount)"])
            try await context.answer(.ok(OK(changeCount: changeCount)), on: id)
        } catch let error as ProtocolError {
            context.logger.error("pasteboard not cleared", metadata: ["pasteboard": "\(request.pasteboard)", "reason": "\(error.message)"])
            try await context.fail(error, on: id)
        }
    }

    /// `read`: answered at once from the inbound loop when it can be (see
    /// `ReadTransfer.answerAtOnce`), else by a task of its own under the per-connection load limit.
    nonisolated(nonsending) func read(_ request: ReadRequest, id: UInt32) async throws {
        if let pasteboard = request.pasteboard { await waitForTheBridge(pasteboard) }
        let configuration = context.configuration
        let requests = context.requests
        let control = TransferControl(window: SendWindow(initialCredit: configuration.window))
        let limit = configuration.maxLoadsPerConnection
        guard requests.reserve(id, window: control.window, isLoad: true, limit: limit, stop: { control.stop(ProtocolError(.cancelled, "read cancelled")) }) else {
            try await context.fail(ProtocolError(
                .limitReached, "\(limit) loads are already in flight on this connection (pasteboardd --max-loads-per-connection)"), on: id)
            return
        }
        let transfer = ReadTransfer(
            request: request, id: id, control: control, store: context.store, writer: context.writer,
            chunkLimit: ProtocolLimits.dataChunkLimit(maxFrameLength: configuration.maxFrameLength),
            reader: context.client,
            release: { requests.remove(id) }
        )
        if await transfer.answerAtOnce() { return }
        requests.attach(Task(executorPreference: context.executor) { await transfer.run() }, to: id)
    }

    /// A read of `pasteboard` right after a desktop bridge started waits (bounded) for its
    /// first import (see `BridgeStartupGate`), on this connection's loop timer.
    nonisolated(nonsending) private func waitForTheBridge(_ pasteboard: String) async {
        let loop = context.executor.eventLoop
        await context.store.bridgeStartup.waitBeforeReading(pasteboard, clientName: context.client.clientName) { await loop.sleep(until: $0) }
    }

    /// `watch`: the current summary, then one per change, until the client cancels.
    nonisolated(nonsending) func watch(_ request: PasteboardRequest, id: UInt32) async throws {
        if try await context.refuseInvalidName(request.pasteboard, on: id) { return }
        let (current, changes, stop) = await context.store.watch(request.pasteboard)
        context.watch(id: id, named: "watch", stop: stop) { writer in
            try await writer.send(.changed(current), on: id)
            for await change in changes { try await writer.send(.changed(change), on: id) }
        }
    }
}

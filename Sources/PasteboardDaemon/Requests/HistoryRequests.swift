import Logging
import PasteboardProtocol

/// The requests about the general pasteboard's history: `history`, `historySearch`,
/// `historyRestore` and `historyClear`.
struct HistoryRequests: Sendable {
    let context: RequestContext

    /// `history`: a page of entries from `start`, as many as fit a frame.
    nonisolated(nonsending) func list(_ request: HistoryRequest, id: UInt32) async throws {
        do {
            let list = try await context.store.historyList(from: request.start ?? 0, frameLimit: context.configuration.maxFrameLength)
            try await context.answer(.historyList(list), on: id)
        } catch let error as ProtocolError {
            try await context.fail(error, on: id)
        }
    }

    /// `historySearch`: a page of the entries whose text contains the request's.
    nonisolated(nonsending) func search(_ request: HistorySearchRequest, id: UInt32) async throws {
        do {
            let list = try await context.store.searchHistory(request.text, from: request.start ?? 0, frameLimit: context.configuration.maxFrameLength)
            try await context.answer(.historyList(list), on: id)
        } catch let error as ProtocolError {
            try await context.fail(error, on: id)
        }
    }

    /// `historyRestore`: writes an entry to the general pasteboard again.
    nonisolated(nonsending) func restore(_ request: HistoryRestoreRequest, id: UInt32) async throws {
        do {
            let changeCount = try await context.store.restoreHistoryEntry(request.index)
            context.logger.info("history entry restored", metadata: ["index": "\(request.index)", "changeCount": "\(changeCount)"])
            try await context.answer(.ok(OK(changeCount: changeCount)), on: id)
        } catch let error as ProtocolError {
            try await context.fail(error, on: id)
        }
    }

    /// `historyClear`: forgets every entry.
    nonisolated(nonsending) func clear(id: UInt32) async throws {
        await context.store.clearHistory()
        context.logger.info("history cleared")
        try await context.answer(.ok(OK()), on: id)
    }
}

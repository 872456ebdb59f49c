import Logging
import NIOCore
import PasteboardProtocol
import PasteboardSystem

/// What the request handlers of one connection share: the store, where answers go, the
/// requests running as tasks, the client as the store sees it, and the configuration each
/// request takes its limits from when it starts (so a reload applies to what starts after it).
struct RequestContext: Sendable {
    let store: PasteboardStore
    let writer: FrameWriter
    let requests: RequestTable
    let client: ConnectedClient
    let logger: Logger
    let liveConfiguration: LiveConfiguration
    /// The channel's event loop as a task executor: the tasks of requests prefer it.
    let executor: EventLoopTaskExecutor

    /// The configuration as it is now, for a request that starts.
    var configuration: DaemonConfiguration { liveConfiguration.current }

    /// Sends `message` on request `id`.
    nonisolated(nonsending) func answer(_ message: Message, on id: UInt32) async throws {
        try await writer.send(message, on: id)
    }

    /// Answers request `id` with `error`.
    nonisolated(nonsending) func fail(_ error: ProtocolError, on id: UInt32) async throws {
        try await writer.send(.error(error), on: id)
    }

    /// Sends credit on request `id` for bytes a write stored on disk, once the disk has them.
    func creditSender(for id: UInt32) -> @Sendable (Int) async -> Void {
        let writer = writer
        return { bytes in try? await writer.send(.credit(Credit(bytes: bytes)), on: id) }
    }

    /// Answers request `id` with a pasteboard name's validation failure; false when the name is valid.
    nonisolated(nonsending) func refuseInvalidName(_ name: String, on id: UInt32) async throws -> Bool {
        guard let failure = PasteboardName.validationFailure(name) else { return false }
        try await fail(ProtocolError(.invalidArgument, failure), on: id)
        return true
    }
}

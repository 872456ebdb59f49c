import NIOCore
import PasteboardProtocol

/// Sends frames on one connection; safe to use from many tasks at once.
struct FrameWriter: Sendable {
    let outbox: FrameOutbox

    /// Sends a control message on request `id`.
    nonisolated(nonsending) func send(_ message: Message, on id: UInt32) async throws {
        try await outbox.send(.message(message, requestID: id))
    }

    /// Sends `frames` in order with one flush: one system call where the socket takes them all.
    nonisolated(nonsending) func send(_ frames: [Frame]) async throws {
        try await outbox.send(frames)
    }

    /// Sends a data frame on request `id`.
    nonisolated(nonsending) func sendData(_ bytes: ByteBuffer, on id: UInt32, end: Bool) async throws {
        try await outbox.send(.data(bytes, requestID: id, end: end))
    }
}

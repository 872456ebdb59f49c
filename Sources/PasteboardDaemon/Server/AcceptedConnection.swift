import NIOCore
import PasteboardProtocol
import Synchronization

/// An accepted connection on its way to the accept loop. When the server closes before the
/// loop takes it (an accept racing shutdown), it is closed through `executeThenClose` instead
/// of being dropped, which NIO forbids for a writer that was never finished.
final class AcceptedConnection: Sendable {
    private let connection: FramedChannel
    /// The peer's credentials, read as the connection was accepted (or why they could not be).
    let peer: Result<PeerCredentials, any Error>
    private let taken = Atomic<Bool>(false)

    init(_ connection: FramedChannel, peer: Result<PeerCredentials, any Error>) {
        self.connection = connection
        self.peer = peer
    }

    /// The connection, for the server to serve (and close) itself.
    func take() -> FramedChannel {
        taken.store(true, ordering: .relaxed)
        return connection
    }

    deinit {
        guard !taken.load(ordering: .relaxed) else { return }
        let channel = connection.channel
        Task { try? await channel.executeThenClose { _, _ in } }
    }
}

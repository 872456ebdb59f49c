extension SelectionSource {
    /// What happened to a source: what the bridge acts on (let go when cancelled) and logs.
    public enum Event: Sendable {
        /// Another selection replaced ours (another client copied, or we set a newer source), or
        /// the connection ended. The source is destroyed; transfers in flight may still end after.
        case cancelled
        /// A reader asked for a MIME type the source does not offer (or after it was cancelled);
        /// its pipe was closed without a byte.
        case sendRefused(mimeType: String)
        /// One send ended, however it ended; its pipe is closed.
        case transferEnded(TransferReport)
    }

    /// How one send ended.
    public struct TransferReport: Sendable {
        public let mimeType: String
        /// The bytes the reader took.
        public let bytesWritten: Int
        public let outcome: TransferOutcome
    }

    public enum TransferOutcome: Sendable {
        /// The provider returned: everything was written.
        case completed
        /// The reader closed its end first (`wl-paste | head -c 10`): the normal end of a reader
        /// that wanted less, not a failure.
        case readerClosed
        /// The provider threw (``WaylandError/readerStalled(mimeType:bytesWritten:)``, task
        /// cancellation, or its own error, such as the daemon's data being gone).
        case failed(any Error)

        public var isCompleted: Bool {
            if case .completed = self { true } else { false }
        }
    }
}

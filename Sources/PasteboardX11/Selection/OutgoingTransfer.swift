/// The owner's bookkeeping for one answer in progress (internal to `SelectionOwner`).

/// Where a requestor wants a conversion: its window and property. One transfer at a time per
/// key: a new request for the same key replaces an unfinished one.
struct TransferKey: Hashable {
    let requestor: WindowID
    let property: Atom
}

/// A SelectionRequest not answered yet: its conversions (one, or one per MULTIPLE pair) wait
/// until each provider has either finished within one chunk or written more than one.
struct PendingReply {
    let request: X11Event.SelectionRequest
    /// The property named in the SelectionNotify (the request's, or its target for obsolete
    /// clients that sent None).
    let property: Atom
    /// The MULTIPLE pairs when the target was MULTIPLE (written back with refusals as None).
    let multiple: [AtomPair]?
    var parts: [Part]
    /// When a provider that has not decided yet is given up.
    let deadline: ContinuousClock.Instant

    var key: TransferKey { TransferKey(requestor: request.requestor, property: property) }
}

/// One conversion of a reply.
struct Part {
    enum Content {
        /// Known at once (TARGETS, TIMESTAMP, or data within one chunk): a property of `type`
        /// and `format`, in the runs it was written in.
        case immediate(type: Atom, format: UInt8, runs: [ByteRun])
        /// An offered target, streamed by the provider's task.
        case stream(SelectionChunkWriter, Task<Void, Never>)
        /// Answered with None.
        case refused(reason: String)
    }

    let target: Atom
    let targetName: String
    let property: Atom
    var content: Content
}

/// An INCR transfer in flight after the SelectionNotify was sent (ICCCM §2.7.2).
struct IncrementalTransfer {
    enum Phase {
        /// A chunk (or the INCR header) is in the requestor's property: wait for it to delete it.
        case awaitingDelete
        /// The requestor is ready: send the provider's next bytes when there are some.
        case readyForChunk
    }

    let key: TransferKey
    let target: Atom
    let targetName: String
    let writer: SelectionChunkWriter
    let task: Task<Void, Never>
    var phase: Phase = .awaitingDelete
    /// The bound of the current wait: on the requestor (awaitingDelete) or the provider.
    var deadline: ContinuousClock.Instant
    /// When less than a chunk is buffered for a ready requestor, the moment it is sent anyway
    /// (a slow provider is not made to fill a whole chunk first).
    var partialAt: ContinuousClock.Instant?
    var bytesSent = 0
    var chunksSent = 0
}

internal import NIOCore
internal import PasteboardProtocol

/// The destination's side of one `read`: the representation the daemon chose, the data
/// frames under flow control, and the check that a handed-off transfer arrived whole. Shared
/// by `PasteboardConnection`'s loader and `BlockingConnection`, which differ only in how they
/// wait.
struct ReadStream {
    private var window: ReceiveWindow
    /// The daemon's choice, once its `representation` arrived.
    private(set) var chosen: RepresentationHeader?
    /// Bytes that came through a handed-off socket, once drained.
    var handedOff: Int?
    /// The byte count the daemon's last `progress` reported.
    var reported: Int?

    /// What to do with a data frame.
    struct Step {
        /// Bytes for the destination (nil for an empty frame).
        var bytes: ByteBuffer?
        /// Credit to grant the daemon once the bytes are consumed.
        var credit: Int?
        /// Set on the last frame: the load is complete.
        var finished: RepresentationHeader?
    }

    init(window: Int) {
        self.window = ReceiveWindow(window: window)
    }

    /// Takes the daemon's choice; returns true when its bytes come through a handed-off socket.
    /// Throws when the daemon hands off a load for which no hand-off socket is attached.
    mutating func choose(_ header: RepresentationHeader, handoffAttached: Bool) throws -> Bool {
        chosen = header
        guard header.handoff == true else { return false }
        guard handoffAttached else {
            throw PasteboardError.connectionLost("the daemon handed off a load without a hand-off socket")
        }
        return true
    }

    /// Takes a `progress` report; returns it as the destination hears it.
    mutating func progress(_ report: ProgressReport) -> LoadProgress {
        reported = report.completed
        return LoadProgress(completed: report.completed, total: report.total)
    }

    /// Takes a data frame. Throws when it breaks the protocol: data before the representation
    /// was named, more than the credit allowed, or a hand-off that lost bytes.
    mutating func receive(_ frame: Frame) throws -> Step {
        guard let chosen else {
            throw PasteboardError.connectionLost("the daemon sent data before naming the representation")
        }
        let count = frame.payload.readableBytes
        try window.receive(count)
        var step = Step(bytes: count > 0 ? frame.payload : nil)
        if frame.isEnd {
            if let handedOff, handedOff != reported {
                throw PasteboardError.connectionLost("the source wrote \(reported.map(String.init) ?? "an unknown number of") bytes, but \(handedOff) arrived")
            }
            step.finished = chosen
        } else {
            step.credit = window.consume(count)
        }
        return step
    }
}

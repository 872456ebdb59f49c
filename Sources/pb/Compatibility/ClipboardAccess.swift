import NIOCore
import Pasteboard
import PasteboardCLI
import PasteboardProtocol
import PasteboardTypes
import Synchronization

/// What the compatibility modes do to one named pasteboard: copy, paste, list, clear, and wait
/// for the content to be replaced. A copy and a paste go through a `BlockingConnection` first,
/// as `pb copy` and `pb paste` do (no event loop to start: these names are called from shell
/// loops too); when no daemon answers, through `PasteboardConnection`, which starts one.
struct ClipboardAccess {
    /// The named pasteboard (`general`, `primary`, `secondary`, …).
    let pasteboard: String

    /// How a paste ended, in the terms the originals report.
    enum PasteOutcome {
        /// The representation of this header was written.
        case pasted(RepresentationHeader)
        /// The pasteboard holds nothing.
        case empty
        /// It holds an item, but no representation conforms to the accepted types.
        case noSuitableType
    }

    /// Puts `item` on the pasteboard once the daemon holds its data, cleared `expiringAfter`
    /// later when given (unless replaced meanwhile); returns the change count.
    @discardableResult
    func copy(_ item: ItemProvider, expiringAfter expiry: Duration? = nil) async throws -> Int {
        if let changeCount = try QuickInvocation.setItems([item], on: pasteboard, expiringAfter: expiry) { return changeCount }
        return try await PasteboardOptions.withPasteboard(named: pasteboard) { try await $0.setItems([item], expiringAfter: expiry) }
    }

    /// Writes item 0's representation best matching `accepted` (empty: its first) to `output`.
    /// SIGINT and SIGTERM cancel the load.
    func paste(accepting accepted: [TypeIdentifier], to output: PasteOutput) async throws -> PasteOutcome {
        do {
            if let connection = try QuickInvocation.connect() {
                do {
                    let header = try connection.loadBuffers(pasteboard: pasteboard, item: 0, accepting: accepted,
                                                            interrupt: Signals.interruptDescriptor()) { try output.write($0) }
                    output.finish()
                    return .pasted(header)
                } catch PasteboardError.daemonUnreachable where !output.wroteAnything {
                    // closed before its welcome (shutting down): nothing was done
                }
            }
            let header = try await Signals.cancellingOnInterrupt { [pasteboard] in try await Self.load(pasteboard, accepting: accepted, to: output) }
            output.finish()
            return .pasted(header)
        } catch let error as PasteboardError {
            return try await outcome(of: error, output: output)
        }
    }

    /// `paste(accepting:to:)` given up once `limit` has passed: nil then (what was written by
    /// then stays written; `output` tells whether anything was).
    func paste(accepting accepted: [TypeIdentifier], to output: PasteOutput, within limit: Duration) async throws -> PasteOutcome? {
        do {
            let header = try await Signals.cancellingOnInterrupt { [pasteboard] in
                try await withThrowingTaskGroup(of: RepresentationHeader?.self) { group in
                    group.addTask { try await Self.load(pasteboard, accepting: accepted, to: output) }
                    group.addTask {
                        try await Task.sleep(for: limit)
                        return nil
                    }
                    defer { group.cancelAll() }
                    return try await group.next() ?? nil
                }
            }
            guard let header else { return nil }
            output.finish()
            return .pasted(header)
        } catch let error as PasteboardError {
            return try await outcome(of: error, output: output)
        }
    }

    /// Item 0 of `pasteboard` loaded into `output` through `PasteboardConnection` (which starts a
    /// daemon when none runs).
    private static func load(_ pasteboard: String, accepting accepted: [TypeIdentifier], to output: PasteOutput) async throws -> RepresentationHeader {
        try await PasteboardOptions.withPasteboard(named: pasteboard) { board in
            try await board.loadBuffers(item: 0, accepting: accepted) { try output.write($0) }
        }
    }

    /// What a paste that failed with `error` comes to in the originals' terms: nothing to
    /// paste, no suitable type, or the error itself. An item whose source left without handing
    /// its data over (killed, its process gone) is nothing to paste, as the original's
    /// selection is once its owner is gone.
    private func outcome(of error: PasteboardError, output: PasteOutput) async throws -> PasteOutcome {
        switch error.code {
        case .noSuchItem?: return .empty
        case _ where error.description.contains(PasteServing.exhaustedMessage) && !output.wroteAnything:
            return .empty  // the last paste of a paste-once source was served; the clear is under way
        case .noConformingRepresentation?: return .noSuitableType
        case .sourceUnavailable? where !output.wroteAnything:
            // Only when the whole item is gone: one representation lost among others that can
            // still be read (a damaged stored file) is a failure to report.
            guard (try? await currentItem()) == .some(nil) else { throw error }
            return .empty
        default: throw error
        }
    }

    /// Item 0 as the originals see the selection: nil when the pasteboard is empty or when
    /// every representation of the item is unavailable (its live source left without handing
    /// its data over: killed, its process gone), as the original's selection is empty once its
    /// owner is gone. Type lists and pastes both go by it.
    func currentItem() async throws -> ItemInfo? {
        guard let item = try await contents().items.first,
              !item.representations.allSatisfy({ $0.unavailable == true })
        else { return nil }
        return item
    }

    /// The pasteboard's change count and items, as `pb list` reads them.
    func contents() async throws -> ItemsReply {
        try await PasteboardOptions.withPasteboard(named: pasteboard) { try await $0.contentsReply() }
    }

    /// Removes every item.
    func clear() async throws {
        try await PasteboardOptions.withPasteboard(named: pasteboard) { _ = try await $0.clear() }
    }

    /// Returns once the content of change count `changeCount` has been replaced or cleared (what
    /// an original serving in the foreground waits for before it exits); SIGINT and SIGTERM end
    /// the wait with `CancellationError`.
    func waitUntilReplaced(changeCount: Int) async throws {
        let pasteboard = pasteboard
        try await Signals.cancellingOnInterrupt {
            try await PasteboardOptions.withPasteboard(named: pasteboard) { board in
                for try await change in board.changes({ $0.changeCount }) where change != changeCount {
                    return
                }
                throw PasteboardError.connectionLost("the daemon stopped reporting changes")
            }
        }
    }
}

/// Where a compatibility mode's paste goes: stdout, optionally without its last newline
/// (`xclip -rmlastnl`: a final newline is held back until more bytes follow), or a sink of the
/// caller's. Sendable, so the paste that starts the daemon can write from its task; the state
/// sits behind a lock (one paste writes at a time in any case).
final class PasteOutput: Sendable {
    private let removeLastNewline: Bool
    private let sink: @Sendable (ByteBuffer) throws(CLIError) -> Void
    /// Whether a final newline is held back, and whether anything was written.
    private let state = Mutex((heldNewline: false, wroteAnything: false))

    /// Output to stdout.
    init(removeLastNewline: Bool = false) {
        self.removeLastNewline = removeLastNewline
        self.sink = { buffer throws(CLIError) in try Output.write(buffer, to: 1) }
    }

    /// Output to `sink` instead.
    init(sink: @escaping @Sendable (ByteBuffer) throws(CLIError) -> Void) {
        self.removeLastNewline = false
        self.sink = sink
    }

    /// Whether any byte was written.
    var wroteAnything: Bool { state.withLock { $0.wroteAnything } }

    func write(_ buffer: ByteBuffer) throws(CLIError) {
        guard buffer.readableBytes > 0 else { return }
        var buffer = buffer
        let releaseNewline = state.withLock { state in
            defer { state.wroteAnything = true; state.heldNewline = false }
            return state.heldNewline
        }
        if releaseNewline { try sink(ByteBuffer(string: "\n")) }
        if removeLastNewline, buffer.getInteger(at: buffer.writerIndex - 1, as: UInt8.self) == UInt8(ascii: "\n") {
            buffer.moveWriterIndex(to: buffer.writerIndex - 1)
            state.withLock { $0.heldNewline = true }
        }
        try sink(buffer)
    }

    /// Ends the output: a held-back last newline is dropped.
    func finish() {
        state.withLock { $0.heldNewline = false }
    }

    /// Writes `text` after the data (wl-paste's newline after text).
    func append(_ text: String) throws(CLIError) {
        try sink(ByteBuffer(string: text))
    }
}

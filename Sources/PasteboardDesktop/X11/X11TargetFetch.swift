import Pasteboard
import PasteboardDesktopTypes
import PasteboardTypes
import PasteboardX11

/// One lazy representation fetched from the X owner when a destination loads it: on a
/// connection and thread of its own (a load may run beside the watcher and other loads, and
/// a blocking X read must not hold a Swift concurrency thread), streamed through a bounded
/// `ChunkChannel` into the representation writer.
struct X11TargetFetch: Sendable {
    /// Chunks in flight between the X thread and the writer.
    static let bufferedChunks = 4
    /// The most one GetProperty reads: with `bufferedChunks`, bounds the memory of a fetch
    /// (about 4 MiB). 1 MiB is the INCR chunk xclip and Xlib clients send under BIG-REQUESTS, so
    /// each chunk is one round trip, not four (a 256 MiB paste from xclip -i: 0.19–0.26 s
    /// against 0.24–0.37 s with 256 KiB reads).
    static let readSize = 1 << 20
    /// The most a converted representation may have: conversions take the bytes whole.
    static let conversionLimit = 64 << 20

    let display: X11Display
    let selection: String
    let representation: DesktopRepresentation
    /// The window that offered the data: a fetch from anyone else would paste the wrong copy.
    let owner: WindowID

    /// Streams the representation into `writer`.
    func stream(into writer: RepresentationWriter) async throws {
        let channel = ChunkChannel(capacity: Self.bufferedChunks)
        let (display, selection, target, owner) = (display, selection, representation.target, owner)
        DetachedThread.run {
            channel.finish(Self.read(display: display, selection: selection, target: target, owner: owner, into: channel))
        }
        // However the writing ends (done, the writer failed, cancelled), the X thread must not
        // stay blocked on a full channel.
        defer { channel.cancel() }
        try await withTaskCancellationHandler {
            if representation.conversion == .none {
                while let chunk = try await channel.next() {
                    try await writer.write(contentsOf: chunk)
                }
            } else {
                var whole: [UInt8] = []
                while let chunk = try await channel.next() {
                    whole += chunk
                    if whole.count > Self.conversionLimit {
                        channel.cancel()
                        throw DesktopImportError.tooLargeToConvert(target: target, limit: Self.conversionLimit)
                    }
                }
                try await writer.write(contentsOf: representation.conversion.apply(to: whole))
            }
        } onCancel: {
            channel.cancel()
        }
    }

    /// The X side, on its own thread: reads `target` from `owner`, chunk by chunk into
    /// `channel`. Returns the error that ended it, nil when every byte was read.
    private static func read(display: X11Display, selection: String, target: String, owner: WindowID, into channel: ChunkChannel) -> DesktopImportError? {
        let connection: X11Connection
        do { connection = try display.connect() } catch {
            return .fetchFailed(selection: selection, target: target, reason: "\(error)")
        }
        defer { connection.close() }
        channel.attach(connection.cancellation)
        do {
            let reader = try SelectionReader(connection: connection, timeout: display.ownerTimeout)
            reader.readSize = readSize
            let atom = try connection.atom(selection)
            let current = try X11Reply.getSelectionOwner(connection.roundTrip(.getSelectionOwner(atom), timeout: display.ownerTimeout))
            guard current == owner else { return .ownerGone(selection: selection, target: target) }
            var stopped: DesktopImportError?
            do {
                try reader.read(selection: selection, target: target) { chunk in
                    do throws(DesktopImportError) { try channel.send(chunk) } catch {
                        stopped = error
                        throw error
                    }
                }
            } catch {
                if let stopped { return stopped }
                throw error
            }
            return nil
        } catch let error as X11Error {
            switch error {
            case .noOwner, .ownerGone: return .ownerGone(selection: selection, target: target)
            case .cancelled: return .cancelled
            default: return .fetchFailed(selection: selection, target: target, reason: error.description)
            }
        } catch {
            return .fetchFailed(selection: selection, target: target, reason: "\(error)")
        }
    }
}

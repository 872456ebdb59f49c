import Pasteboard
import PasteboardDesktopTypes
import PasteboardTypes
import PasteboardX11

/// One lazy representation fetched from the X owner when a destination loads it: an
/// `X11SelectionFetch` (a connection and thread of its own in PasteboardX11, so a load may run
/// beside the watcher and other loads), streamed with bounded memory into the representation
/// writer. What is policy here: the conversion, its size bound, and the errors the daemon sees.
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
    /// Nil: whoever owns the selection (XdndSelection, whose owner a drop does not name).
    let owner: WindowID?

    /// The representation's bytes whole (converted), refused past `limit`: a dropped file list,
    /// read at once to make the drop's items of.
    func readWhole(limit: Int) async throws -> [UInt8] {
        let fetch = X11SelectionFetch(
            display: display, selection: selection, target: representation.target, owner: owner, readSize: Self.readSize, bufferedChunks: Self.bufferedChunks)
        defer { fetch.cancel() }
        var whole: [UInt8] = []
        while let chunk = try await next(of: fetch) {
            whole += chunk
            if whole.count > limit { throw DesktopImportError.tooLargeToConvert(target: representation.target, limit: limit) }
        }
        return representation.conversion.apply(to: whole)
    }

    /// Streams the representation into `writer`.
    func stream(into writer: RepresentationWriter) async throws {
        let target = representation.target
        let fetch = X11SelectionFetch(
            display: display, selection: selection, target: target, owner: owner, readSize: Self.readSize, bufferedChunks: Self.bufferedChunks)
        // However the writing ends (done, the writer failed, cancelled), the X side must not
        // stay blocked on a full channel.
        defer { fetch.cancel() }
        if representation.conversion == .none {
            while let chunk = try await next(of: fetch) {
                try await writer.write(contentsOf: chunk)
            }
        } else {
            var whole: [UInt8] = []
            while let chunk = try await next(of: fetch) {
                whole += chunk
                if whole.count > Self.conversionLimit {
                    throw DesktopImportError.tooLargeToConvert(target: target, limit: Self.conversionLimit)
                }
            }
            try await writer.write(contentsOf: representation.conversion.apply(to: whole))
        }
    }

    /// The fetch's next chunk, its X11 errors as the import direction's.
    private func next(of fetch: X11SelectionFetch) async throws(DesktopImportError) -> [UInt8]? {
        do throws(X11Error) {
            return try await fetch.next()
        } catch {
            switch error {
            case .noOwner, .ownerGone: throw .ownerGone(selection: selection, target: representation.target)
            case .cancelled: throw .cancelled
            default: throw .fetchFailed(selection: selection, target: representation.target, reason: error.description)
            }
        }
    }
}

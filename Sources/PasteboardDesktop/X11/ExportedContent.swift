import Pasteboard
import PasteboardX11

/// Serves the desktop's requests for one offered pasteboard change: each target's bytes are
/// loaded from the daemon only when a requestor asks (a lazy source produces them only now),
/// streamed under the daemon's flow control into the selection owner's chunk writer, whose
/// backpressure holds the load while the requestor reads, so the bridge holds a few chunks
/// whatever the size.
struct ExportedContent: Sendable {
    let board: Pasteboard
    let plan: DesktopExportPlan

    /// Streams `request.target` into `writer`; throws (the owner refuses, or abandons the INCR
    /// transfer) when the pasteboard changed since `plan` or the load failed.
    func provide(_ request: SelectionOwner.ContentRequest, into writer: SelectionChunkWriter) async throws {
        guard let target = plan.target(named: request.target) else { throw DesktopExportError.notOffered(target: request.target) }
        switch target.source {
        case let .fixed(bytes):
            try await writer.write(bytes)
        case let .representation(type, conversion):
            var encoder = ExportEncoder(conversion)
            // An identity export hands the received bytes on as they are (the owner gathers
            // them into chunks without a copy); a conversion's output is written as it comes.
            let identity = conversion == .none
            let exported = plan.changeCount
            do {
                try await board.load(item: 0, accepting: [type], header: { loaded in
                    // The daemon answers with the pasteboard as it is now: newer content is not ours to give.
                    guard loaded.changeCount == exported else {
                        throw DesktopExportError.pasteboardChanged(exported: exported, current: loaded.changeCount)
                    }
                }, chunk: { chunk in
                    if identity {
                        try await writer.write(ReceivedBytes(chunk: chunk))
                    } else {
                        let bytes = encoder.encode(chunk)
                        if !bytes.isEmpty { try await writer.write(bytes) }
                    }
                })
            } catch let error as PasteboardError {
                throw DesktopExportError.loadFailed(target: request.target, code: error.code?.rawValue, message: error.description)
            }
            let tail = identity ? [] : encoder.finish()
            if !tail.isEmpty { try await writer.write(tail) }
        }
    }
}

import Pasteboard
import PasteboardDesktopTypes
import PasteboardTypes
import PasteboardWayland

/// One lazy representation read from a Wayland selection owner when a destination loads it:
/// `receive` on the importer's connection, then the pipe streamed into the representation
/// writer chunk by chunk. Each chunk is written to the daemon (under its flow control) before
/// the next is read, so a slow destination leaves the rest in the pipe and the owner blocks on
/// it: memory stays at one pipe read whatever the size. The owner's silence is bounded by
/// `timeout`; an owner that is gone, or whose offer another copy replaced, fails the load with
/// `DesktopImportError.ownerGone` (the daemon reports `source-unavailable`).
struct WaylandOfferFetch: Sendable {
    let reader: SelectionReader
    let offer: SelectionOffer
    let representation: DesktopRepresentation
    let timeout: Duration

    /// Streams the representation into `writer`.
    func stream(into writer: RepresentationWriter) async throws {
        do {
            try await Self.stream(representation, into: writer) { chunk in
                try await reader.read(representation.target, from: offer, timeout: timeout, chunk: chunk)
            }
        } catch let error as WaylandError {
            throw Self.importError(error, selection: offer.kind, target: representation.target)
        }
    }

    /// Streams what `read` reads of `representation`'s MIME type into `writer`: as it comes
    /// when no conversion applies, else whole (at most `X11TargetFetch.conversionLimit`) and
    /// converted. Shared by the clipboard's fetch and a drop's (`WaylandDropFetch`).
    static func stream(
        _ representation: DesktopRepresentation, into writer: RepresentationWriter,
        read: (_ chunk: ([UInt8]) async throws -> Void) async throws -> Void
    ) async throws {
        let target = representation.target
        if representation.conversion == .none {
            try await read { chunk in try await writer.write(contentsOf: chunk) }
        } else {
            var whole: [UInt8] = []
            try await read { chunk in
                whole += chunk
                if whole.count > X11TargetFetch.conversionLimit {
                    throw DesktopImportError.tooLargeToConvert(target: target, limit: X11TargetFetch.conversionLimit)
                }
            }
            try await writer.write(contentsOf: representation.conversion.apply(to: whole))
        }
    }

    /// A Wayland failure in the terms a destination is told.
    static func importError(_ error: WaylandError, selection: SelectionKind, target: String) -> DesktopImportError {
        let name = selection.waylandName
        switch error {
        case .ownerGone, .offerReplaced, .noSelection:
            return .ownerGone(selection: name, target: target)
        default:
            return .fetchFailed(selection: name, target: target, reason: error.description)
        }
    }
}

extension SelectionKind {
    /// The selection's name in messages: the Wayland selection or primary selection.
    var waylandName: String {
        switch self {
        case .clipboard: "the Wayland clipboard"
        case .primary: "the Wayland primary selection"
        }
    }
}

import NIOCore
import PasteboardProtocol
import PasteboardTypes

/// Serves one `read`: negotiates the representation, announces it, and streams its bytes
/// under the destination's flow-control credit.
struct ReadTransfer: Sendable {
    let request: ReadRequest
    let id: UInt32
    let window: SendWindow
    let store: PasteboardStore
    let writer: FrameWriter
    let chunkLimit: Int
    /// Frees the request id; called just before the terminal frame, so a client that reuses the
    /// id as soon as it sees that frame never finds it still in flight.
    let release: @Sendable () -> Void

    /// Runs the transfer to its terminal frame (the END data frame, or an error).
    func run() async {
        do {
            try await transfer()
        } catch let error as ProtocolError {
            release()
            try? await writer.send(.error(error), on: id)
        } catch {
            // Cancelled with the connection, or the connection is gone: nothing to tell.
            release()
        }
    }

    private func transfer() async throws {
        if let failure = PasteboardName.validationFailure(request.pasteboard) {
            throw ProtocolError(.invalidArgument, failure)
        }
        let registry = store.registry
        var accepted: [TypeIdentifier] = []
        for string in request.accept {
            guard let type = registry.resolve(string) ?? TypeIdentifier.wellFormed(string) else {
                throw ProtocolError(.unknownType, "'\(string)' is not a type identifier or MIME type")
            }
            accepted.append(type)
        }
        let pasteboard = await store.pasteboard(named: request.pasteboard)
        guard request.item >= 0, request.item < pasteboard.items.count else {
            throw ProtocolError(
                .noSuchItem,
                pasteboard.items.isEmpty
                    ? "pasteboard '\(request.pasteboard)' is empty"
                    : "pasteboard '\(request.pasteboard)' has no item \(request.item) (it holds \(pasteboard.items.count))"
            )
        }
        let item = pasteboard.items[request.item]
        let types = item.representations.map(\.type)
        guard let index = registry.chooseRepresentation(among: types, accepting: accepted) else {
            throw ProtocolError(
                .noConformingRepresentation,
                "no representation conforming to \(accepted.map(\.rawValue).joined(separator: ", ")) (the item offers \(types.map(\.rawValue).joined(separator: ", ")))"
            )
        }
        let representation = item.representations[index]
        try await writer.send(
            .representation(RepresentationHeader(
                changeCount: pasteboard.changeCount, item: request.item, index: index,
                type: representation.type.rawValue, size: representation.size,
                mimeType: registry.preferredMIMEType(for: representation.type)
            )),
            on: id
        )
        switch representation.content {
        case .data(let chunks):
            for chunk in chunks {
                var remaining = chunk
                while remaining.readableBytes > 0 {
                    let allowed = try await window.acquire(upTo: min(remaining.readableBytes, chunkLimit))
                    try await writer.sendData(remaining.readSlice(length: allowed)!, on: id, end: false)
                }
            }
        }
        try Task.checkCancellation()
        release()
        try await writer.sendData(ByteBuffer(), on: id, end: true)
    }
}

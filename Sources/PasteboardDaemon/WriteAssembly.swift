import NIOCore
import PasteboardProtocol
import PasteboardTypes

/// Collects the data frames of one `write` request into items, checking limits as bytes arrive.
/// A class: it lives in the connection's table while bytes arrive and is updated in place.
final class WriteAssembly {
    let pasteboard: String
    private let declared: [ItemInfo]
    private let types: [[TypeIdentifier]]
    private let maxRepresentationSize: Int
    private(set) var window: ReceiveWindow
    private var itemIndex = 0
    private var representationIndex = 0
    private var chunks: [ByteBuffer] = []
    private var receivedInRepresentation = 0
    private var finishedItems: [StoredItem] = []
    private var finishedRepresentations: [StoredRepresentation] = []

    /// Validates the request; throws the error to answer it with.
    init(_ request: WriteRequest, registry: TypeRegistry, configuration: DaemonConfiguration) throws(ProtocolError) {
        if let failure = PasteboardName.validationFailure(request.pasteboard) {
            throw ProtocolError(.invalidArgument, failure)
        }
        if request.items.count > configuration.maxItemsPerPasteboard {
            throw ProtocolError(.tooLarge, "\(request.items.count) items exceed the limit of \(configuration.maxItemsPerPasteboard) per pasteboard")
        }
        var types: [[TypeIdentifier]] = []
        for (itemIndex, item) in request.items.enumerated() {
            if item.representations.isEmpty {
                throw ProtocolError(.invalidArgument, "item \(itemIndex) has no representations")
            }
            var itemTypes: [TypeIdentifier] = []
            for representation in item.representations {
                guard let type = registry.resolve(representation.type) ?? TypeIdentifier.wellFormed(representation.type) else {
                    throw ProtocolError(.unknownType, "'\(representation.type)' is not a type identifier or MIME type")
                }
                if itemTypes.contains(type) {
                    throw ProtocolError(.invalidArgument, "item \(itemIndex) lists \(type) twice")
                }
                if let size = representation.size, size < 0 {
                    throw ProtocolError(.invalidArgument, "\(type) declares a negative size")
                }
                if let size = representation.size, size > configuration.maxRepresentationSize {
                    throw ProtocolError(.tooLarge, "\(type) of \(size) bytes exceeds the daemon's limit of \(configuration.maxRepresentationSize) bytes")
                }
                itemTypes.append(type)
            }
            types.append(itemTypes)
        }
        // Every `items` and `changed` answer describing these items must fit in one frame.
        let summary = ItemsReply(pasteboard: request.pasteboard, changeCount: Int.max, items: zip(request.items, types).map { item, types in
            ItemInfo(
                representations: types.map {
                    RepresentationInfo(type: $0.rawValue, size: Int.max, mimeType: registry.preferredMIMEType(for: $0))
                },
                suggestedName: item.suggestedName
            )
        })
        let summaryLength = MessageCodec.encode(.items(summary)).readableBytes + ProtocolLimits.headerLength
        if summaryLength > configuration.maxFrameLength {
            throw ProtocolError(
                .tooLarge,
                "describing these items takes \(summaryLength) bytes, more than the \(configuration.maxFrameLength)-byte frame limit"
            )
        }
        self.pasteboard = request.pasteboard
        self.declared = request.items
        self.types = types
        self.maxRepresentationSize = configuration.maxRepresentationSize
        self.window = ReceiveWindow(window: configuration.window)
    }

    /// True when every representation's bytes have arrived.
    var isComplete: Bool { itemIndex == declared.count }

    /// The assembled items, once complete.
    var items: [StoredItem] { finishedItems }

    /// Takes one data frame; returns credit to grant. Throws the error that fails the request.
    func receive(_ frame: Frame) throws(ProtocolError) -> Int? {
        let bytes = frame.payload.readableBytes
        try window.receive(bytes)
        receivedInRepresentation += bytes
        let type = types[itemIndex][representationIndex]
        if receivedInRepresentation > maxRepresentationSize {
            throw ProtocolError(.tooLarge, "\(type) exceeds the daemon's limit of \(maxRepresentationSize) bytes")
        }
        if bytes > 0 { chunks.append(frame.payload) }
        if frame.isEnd { try finishRepresentation(type) }
        return window.consume(bytes)
    }

    private func finishRepresentation(_ type: TypeIdentifier) throws(ProtocolError) {
        let declaredSize = declared[itemIndex].representations[representationIndex].size
        if let declaredSize, declaredSize != receivedInRepresentation {
            throw ProtocolError(.invalidArgument, "\(type) declared \(declaredSize) bytes but \(receivedInRepresentation) arrived")
        }
        finishedRepresentations.append(StoredRepresentation(type: type, chunks: chunks))
        chunks = []
        receivedInRepresentation = 0
        representationIndex += 1
        if representationIndex == types[itemIndex].count {
            finishedItems.append(StoredItem(representations: finishedRepresentations, suggestedName: declared[itemIndex].suggestedName))
            finishedRepresentations = []
            representationIndex = 0
            itemIndex += 1
        }
    }
}

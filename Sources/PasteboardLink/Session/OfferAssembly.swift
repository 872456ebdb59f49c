internal import NIOCore
import PasteboardProtocol

/// An offer of the peer's whose inline bytes are arriving: they come as data frames on the
/// offer's id, representation after representation (in the offer's order), each ended by END,
/// and must add up to the sizes the offer declared, which the capture limit bounds.
struct OfferAssembly: Sendable {
    let offer: LinkOffer
    /// Item and representation index of each inline representation, in order, with its size.
    private let expected: [(item: Int, representation: Int, size: Int)]
    private var chunks: [ByteBuffer] = []
    private var bytes = 0
    /// The bytes of each inline representation received so far.
    private(set) var collected: [[ByteBuffer]] = []

    /// An assembly for `offer`; throws when its inline representations declare no size or more
    /// than `capture` bytes in all.
    init(_ offer: LinkOffer, capture: Int) throws(ProtocolError) {
        var expected: [(Int, Int, Int)] = []
        var total = 0
        for (itemIndex, item) in offer.items.enumerated() {
            for (index, representation) in item.representations.enumerated() where representation.inline == true {
                guard let size = representation.size, size >= 0 else {
                    throw ProtocolError(.invalidArgument, "an inline representation without a size")
                }
                total = total.addingSaturating(size)
                expected.append((itemIndex, index, size))
            }
        }
        guard total <= capture else {
            throw ProtocolError(.tooLarge, "an offer with \(total) inline bytes, over the \(capture) this end takes")
        }
        self.offer = offer
        self.expected = expected
        self.inlineBytes = total
    }

    /// The inline bytes the offer declared.
    let inlineBytes: Int

    /// Whether the offer is complete (all inline bytes arrived).
    var isComplete: Bool { collected.count == expected.count }

    /// Takes one data frame; throws when it exceeds the declared size or ends a representation short.
    mutating func take(_ buffer: ByteBuffer, end: Bool) throws(ProtocolError) {
        guard collected.count < expected.count else { throw ProtocolError(.unexpectedMessage, "data for an offer that is complete") }
        let size = expected[collected.count].size
        bytes += buffer.readableBytes
        guard bytes <= size else { throw ProtocolError(.tooLarge, "an inline representation longer than its declared \(size) bytes") }
        if buffer.readableBytes > 0 { chunks.append(buffer) }
        guard end else { return }
        guard bytes == size else { throw ProtocolError(.invalidArgument, "an inline representation of \(bytes) bytes, not its declared \(size)") }
        collected.append(chunks)
        chunks = []
        bytes = 0
    }

    /// The inline bytes of item `item`'s representation `representation`, once complete.
    func bytes(item: Int, representation: Int) -> [ByteBuffer]? {
        guard let position = expected.firstIndex(where: { $0.item == item && $0.representation == representation }), position < collected.count else { return nil }
        return collected[position]
    }
}

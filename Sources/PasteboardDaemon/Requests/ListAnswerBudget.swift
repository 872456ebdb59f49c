import NIOCore
import PasteboardJSON
import PasteboardProtocol

/// The room left in one frame for a list answer (`type-list`, `history-list`) as elements are
/// added: the frame's limit, less the answer with an empty list, less each element taken.
/// Sizes come from the writer that writes the answer, so what fits here fits on the wire.
struct ListAnswerBudget {
    private let frameLimit: Int
    private var used: Int

    /// A budget for answers shaped like `emptyAnswer` in frames of at most `frameLimit` bytes.
    init(emptyAnswer: Message, frameLimit: Int) {
        self.frameLimit = frameLimit
        used = MessageCodec.encode(emptyAnswer).readableBytes + ProtocolLimits.headerLength
    }

    /// The bytes `element` adds to the list: its JSON and a comma.
    static func size(of element: some JSONObjectCoding) -> Int {
        element.jsonDocument.count + 1
    }

    /// Whether `size` more bytes fit.
    func fits(_ size: Int) -> Bool {
        used + size <= frameLimit
    }

    /// Counts `size` bytes as taken.
    mutating func take(_ size: Int) {
        used += size
    }
}

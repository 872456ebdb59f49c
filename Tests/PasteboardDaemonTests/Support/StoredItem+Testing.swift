import NIOCore
@testable import PasteboardDaemon
import PasteboardTypes

/// Items and representations as the store tests write and read them.
extension StoredItem {
    /// One item holding `text` as UTF-8 plain text, in memory.
    static func text(_ text: String, sensitive: Bool = false) -> StoredItem {
        StoredItem(representations: [StoredRepresentation(type: .utf8PlainText, chunks: [ByteBuffer(string: text)])], isSensitive: sensitive)
    }

    /// One item whose representations are promises of `owner`, by type and promise id.
    static func promised(by owner: any PromiseOwner, _ promises: [(TypeIdentifier, Int)], size: Int? = nil) -> StoredItem {
        StoredItem(representations: promises.map { type, id in
            StoredRepresentation(type: type, content: .promise(.init(owner: owner, id: id)), size: size)
        })
    }

    /// The text of its first representation, when the daemon holds its bytes in memory.
    var text: String? { representations.first?.text }
}

extension StoredRepresentation {
    /// Its bytes as UTF-8 text, when the daemon holds them in memory.
    var text: String? {
        guard case .data(let chunks) = content else { return nil }
        return String(decoding: chunks.flatMap { $0.readableBytesView }, as: UTF8.self)
    }

    /// The reason its bytes are gone, when they are.
    var unavailableReason: String? {
        guard case .unavailable(let reason) = content else { return nil }
        return reason
    }
}

extension PasteboardStore {
    /// The texts of `name`'s items.
    func texts(of name: String) -> [String?] {
        pasteboard(named: name).items.map(\.text)
    }
}

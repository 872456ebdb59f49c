import GalleryModel

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The local context of a gallery's drag (seen only by gallery processes): which gallery file
/// the images are in and their ids, so a drop into the same file is a reorder and the trash
/// knows the drag comes from a gallery.
struct GalleryDragContext: Codable, Equatable {
    /// The source gallery file's absolute path.
    var file: String
    /// The dragged images' ids, in drag order.
    var ids: [String]

    /// The context as session text.
    var text: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding a string and an array of strings cannot fail.
        return String(decoding: try! encoder.encode(self), as: UTF8.self)
    }

    /// Reads a session's local context; nil when it is absent or not a gallery's.
    init?(_ text: String?) {
        guard let text, let context = try? JSONDecoder().decode(GalleryDragContext.self, from: Data(text.utf8)) else { return nil }
        self = context
    }

    init(file: String, ids: [String]) {
        self.file = file
        self.ids = ids
    }
}

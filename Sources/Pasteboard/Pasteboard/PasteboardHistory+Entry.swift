#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
import Foundation
#endif
package import PasteboardProtocol
import PasteboardTypes

extension PasteboardHistory {
    /// One entry of the general pasteboard's history: an earlier (or the current) content,
    /// described without its data, as a clipboard manager lists it.
    public struct Entry: Sendable {
        /// The entry's index in the whole history, 0 the newest: what `restore` takes.
        public let index: Int
        /// The general pasteboard's change count when this content was written (or restored).
        public let changeCount: Int
        /// When it was written.
        public let time: Date
        /// True when this entry is the general pasteboard's content now.
        public let isCurrent: Bool
        /// The sum of the known sizes of its representations, in bytes.
        public let size: Int
        /// The start of its text (at most 100 characters), when it has text.
        public let preview: String?
        /// Its items (types, sizes, MIME types; lazy while a live source still promises a
        /// representation of the current content).
        public let items: [PasteboardItem]
        /// The machine the content came from over a link (its name, else the start of its id);
        /// nil for a copy made on this machine.
        public let machine: String?

        package init(_ info: HistoryEntryInfo, registry: TypeRegistry) {
            index = info.index
            changeCount = info.changeCount
            time = Date(timeIntervalSince1970: info.time)
            isCurrent = info.current ?? false
            size = info.size
            preview = info.preview
            machine = info.origin?.machineLabel
            items = info.items.enumerated().map { item, description in
                PasteboardItem(index: item, changeCount: info.changeCount, info: description, registry: registry)
            }
        }
    }
}

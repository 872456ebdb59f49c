#if canImport(Glibc)
import Glibc
#endif
import GalleryModel
import Pasteboard

/// The gallery file as the library's placeholder host: a dropped image is a placeholder entry
/// (visible in `gallery list`) until its data has arrived, then committed where it now stands.
struct GalleryPlaceholderHost: DropPlaceholderHost {
    let gallery: GalleryFile

    func insertPlaceholder(titled title: String, at index: Int?) async throws -> String {
        try gallery.insertPlaceholder(title: title, at: index, loadingPID: getpid())
    }

    func commitPlaceholder(_ id: String, with entry: GalleryImage) async throws -> Int {
        do {
            return try gallery.commitPlaceholder(id: id, with: entry)
        } catch {
            // Nobody refers to the stored image any more.
            if let path = gallery.absolutePath(of: entry) { unlink(path) }
            throw error
        }
    }

    func deletePlaceholder(_ id: String) async {
        try? gallery.removePlaceholder(id: id)
    }
}

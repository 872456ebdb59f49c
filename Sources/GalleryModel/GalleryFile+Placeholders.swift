#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc

extension GalleryFile {
    /// Inserts a placeholder for an image that process `loadingPID` is still loading, at `index`
    /// (nil appends; clamped to `0...count`). Returns the placeholder's id.
    public func insertPlaceholder(title: String, at index: Int?, loadingPID: Int32) throws -> String {
        let placeholder = GalleryImage(title: title, placeholder: true, loadingPID: loadingPID)
        try update { document in document.images.insert(placeholder, at: document.insertionIndex(index)) }
        return placeholder.id
    }

    /// Replaces the placeholder `id` with `image` wherever it stands now (other processes may have moved it),
    /// keeping the placeholder's id. Returns its index.
    /// Throws `.noSuchImage(id:)` if the placeholder is gone; the caller must then delete the image file
    /// it stored (e.g. with `storeImage(movingFile:)`), since no entry refers to it.
    @discardableResult
    public func commitPlaceholder(id: String, with image: GalleryImage) throws -> Int {
        try update { document in
            guard let index = document.images.firstIndex(where: { $0.id == id && $0.isPlaceholder }) else {
                throw GalleryError.noSuchImage(id: id)
            }
            var committed = image
            committed.id = id
            committed.placeholder = nil
            committed.loadingPID = nil
            document.images[index] = committed
            return index
        }
    }

    /// Removes the placeholder `id`; does nothing if it is already gone.
    public func removePlaceholder(id: String) throws {
        try update { document in document.images.removeAll { $0.id == id && $0.isPlaceholder } }
    }

    /// Removes placeholders whose loading process no longer exists (or that name none). Returns how many.
    @discardableResult
    public func removeStalePlaceholders() throws -> Int {
        try update { document in
            let before = document.images.count
            document.images.removeAll { $0.isPlaceholder && !Self.isAlive($0.loadingPID) }
            return before - document.images.count
        }
    }

    private static func isAlive(_ pid: Int32?) -> Bool {
        guard let pid, pid > 0 else { return false }
        return kill(pid, 0) == 0 || errno != ESRCH
    }
}

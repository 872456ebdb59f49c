import Glibc

extension GalleryFile {
    /// Removes the entries with `ids` and then deletes their image files (only files inside
    /// `imagesDirectory`; unknown ids are ignored). Returns the removed entries in gallery order.
    @discardableResult
    public func remove(ids: [String]) throws -> [GalleryImage] {
        let doomed = Set(ids)
        let removed = try update { document in
            let removed = document.images.filter { doomed.contains($0.id) }
            document.images.removeAll { doomed.contains($0.id) }
            return removed
        }
        for image in removed {
            if let file = absolutePath(of: image), file.hasPrefix(imagesDirectory + "/") { unlink(file) }
        }
        return removed
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import PasteboardSystem

extension GalleryFile {
    /// Copies the PNG at `path` into `imagesDirectory` and inserts an entry for it at `index`
    /// (clamped to `0...count`; nil appends). Non-PNG files are refused before anything is written;
    /// if the gallery cannot be updated the copied image is removed again. Returns the new entry.
    @discardableResult
    public func add(imageAt path: String, title: String, at index: Int? = nil) throws -> GalleryImage {
        let header = try PNGHeader.read(path: path)
        let source = LexicalPath.normalized(LexicalPath.absolute(path))
        let id = UUID().uuidString.lowercased()
        let slot = try prepareImageSlot(named: id)
        try POSIX.copyFile(from: source, to: slot.absolute)
        POSIX.syncDirectory(imagesDirectory)
        let image = GalleryImage(id: id, title: title, source: source, aspectRatio: header.aspectRatio, file: slot.relative)
        do {
            try update { document in document.images.insert(image, at: document.insertionIndex(index)) }
        } catch {
            unlink(slot.absolute)
            throw error
        }
        return image
    }

    /// Validates the PNG header of an already-downloaded file and moves it into `imagesDirectory`
    /// (copying and unlinking when it lies on another file system). Does not touch the gallery JSON.
    /// Returns the stored file's path relative to `directory` and the image's aspect ratio.
    ///
    /// A refusal names the file as `name` (what the user knows it by, such as the name its
    /// source suggested), not the temporary path it was downloaded to; nil names the path.
    public func storeImage(movingFile temporaryPath: String, describedAs name: String? = nil) throws(GalleryError) -> (file: String, aspectRatio: Double) {
        let header: PNGHeader
        do {
            header = try PNGHeader.read(path: temporaryPath)
        } catch {
            if case .notPNG = error, let name { throw .notPNG(name) }
            throw error
        }
        let slot = try prepareImageSlot(named: UUID().uuidString.lowercased())
        if rename(temporaryPath, slot.absolute) != 0 {
            guard errno == EXDEV else { throw .unwritable(path: slot.absolute, reason: POSIX.errorMessage()) }
            try POSIX.copyFile(from: temporaryPath, to: slot.absolute)
            unlink(temporaryPath)
        }
        POSIX.syncDirectory(imagesDirectory)
        return (slot.relative, header.aspectRatio)
    }

    /// Creates `imagesDirectory` if needed and names "<name>.png" in it, relative and absolute.
    private func prepareImageSlot(named name: String) throws(GalleryError) -> (relative: String, absolute: String) {
        try POSIX.makeDirectory(imagesDirectory)
        let fileName = name + ".png"
        return (LexicalPath.lastComponent(of: imagesDirectory) + "/" + fileName, LexicalPath.join(imagesDirectory, fileName))
    }
}

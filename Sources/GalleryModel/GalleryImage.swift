#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// One entry of a gallery: a stored PNG image, or a placeholder while a drop is still loading.
public struct GalleryImage: Codable, Sendable, Equatable {
    /// Stable identifier of the entry.
    public var id: String
    /// Title shown for the image.
    public var title: String
    /// Where the image came from: a path or URL string.
    public var source: String?
    /// Width divided by height; nil while a placeholder.
    public var aspectRatio: Double?
    /// Path of the image data relative to the gallery file's directory, e.g. "gallery.images/<id>.png".
    public var file: String?
    /// True while a drop is loading; omitted (nil) for ordinary images.
    public var placeholder: Bool?
    /// Process id of the process loading a placeholder.
    public var loadingPID: Int32?

    /// Whether this entry is a placeholder for an image still being loaded.
    public var isPlaceholder: Bool { placeholder == true }

    /// Creates an entry; `id` defaults to a fresh lowercase UUID.
    public init(id: String = UUID().uuidString.lowercased(), title: String, source: String? = nil,
                aspectRatio: Double? = nil, file: String? = nil, placeholder: Bool? = nil, loadingPID: Int32? = nil) {
        self.id = id
        self.title = title
        self.source = source
        self.aspectRatio = aspectRatio
        self.file = file
        self.placeholder = placeholder
        self.loadingPID = loadingPID
    }
}

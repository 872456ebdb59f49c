/// The contents of a gallery file: a format version and the ordered list of images.
public struct GalleryDocument: Codable, Sendable, Equatable {
    /// The only format version this module reads and writes.
    public static let currentVersion = 1

    /// Format version of the file; always `currentVersion` when written by this module.
    public var version: Int
    /// The images in display order.
    public var images: [GalleryImage]

    /// Creates a current-version document holding `images`.
    public init(images: [GalleryImage] = []) {
        self.version = Self.currentVersion
        self.images = images
    }

    /// Decodes a document, refusing versions other than `currentVersion` (a missing version counts as 1).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decodeIfPresent(Int.self, forKey: .version) ?? Self.currentVersion
        guard version == Self.currentVersion else {
            throw DecodingError.dataCorruptedError(
                forKey: .version, in: container,
                debugDescription: "format version \(version) is not supported (this program reads version \(Self.currentVersion))")
        }
        images = try container.decode([GalleryImage].self, forKey: .images)
    }

    /// `index` clamped to `0...images.count`, or `images.count` when nil.
    func insertionIndex(_ index: Int?) -> Int {
        min(max(index ?? images.count, 0), images.count)
    }
}

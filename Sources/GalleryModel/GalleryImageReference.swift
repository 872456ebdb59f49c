#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The content of a `com.example.gallery.image` representation: what another gallery needs to
/// show a dragged image before (and besides) its PNG bytes.
public struct GalleryImageReference: Codable, Sendable, Equatable {
    /// The image's title.
    public var title: String
    /// Where the image is: a `file://` URL of its data, or the URL it came from.
    public var url: String
    /// Width over height.
    public var aspectRatio: Double

    /// Creates a reference.
    public init(title: String, url: String, aspectRatio: Double) {
        self.title = title
        self.url = url
        self.aspectRatio = aspectRatio
    }

    /// The JSON bytes of the representation.
    public func encoded() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding two strings and a number cannot fail.
        return Array(try! encoder.encode(self))
    }

    /// Decodes the representation's bytes; nil when they are not a gallery image reference.
    public static func decode(_ bytes: [UInt8]) -> GalleryImageReference? {
        try? JSONDecoder().decode(GalleryImageReference.self, from: Data(bytes))
    }
}

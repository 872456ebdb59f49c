/// Everything that can go wrong while reading or editing a gallery, phrased for a command-line user.
public enum GalleryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The named file (path as given) is not a PNG image.
    case notPNG(String)
    /// A file could not be read; `reason` is the system's explanation.
    case unreadable(path: String, reason: String)
    /// A file could not be written; `reason` is the system's explanation.
    case unwritable(path: String, reason: String)
    /// The gallery file exists but does not hold a gallery this program understands.
    case corrupt(path: String, reason: String)
    /// An index does not name an entry of a gallery with `count` images.
    case indexOutOfRange(index: Int, count: Int)
    /// No image (or placeholder) with this id is in the gallery.
    case noSuchImage(id: String)

    /// A single-line message suitable for printing to standard error.
    public var description: String {
        switch self {
        case let .notPNG(name):
            "\(name) is not a PNG image (gallery accepts only PNG)"
        case let .unreadable(path, reason):
            "cannot read \(path): \(reason)"
        case let .unwritable(path, reason):
            "cannot write \(path): \(reason)"
        case let .corrupt(path, reason):
            "\(path) is not a valid gallery file: \(reason)"
        case let .indexOutOfRange(index, 0):
            "index \(index) is out of range: the gallery is empty"
        case let .indexOutOfRange(index, 1):
            "index \(index) is out of range: the gallery has 1 image (0)"
        case let .indexOutOfRange(index, count):
            "index \(index) is out of range: the gallery has \(count) images (0–\(count - 1))"
        case let .noSuchImage(id):
            "no image with id \(id) in the gallery"
        }
    }
}

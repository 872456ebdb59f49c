#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
import Foundation
#endif

/// Content received for import: bytes in memory, or a file.
public enum ReceivedContent: Sendable {
    /// The content's bytes.
    case data(Data)
    /// A file holding the content.
    case file(ReceivedFile)
}

/// A file handed to a file importer.
///
/// The file is only guaranteed to exist until the importer returns: an importer that wants to keep
/// it must copy it (when ``isOriginalFile`` is true) or move or copy it (otherwise).
public struct ReceivedFile: Sendable {
    /// The file's location (a file URL).
    public let url: URL
    /// True when this is the source's own file opened in place, which must not be moved or changed;
    /// false when it is a temporary copy that is deleted after the importer returns.
    public let isOriginalFile: Bool

    /// Describes a received file.
    public init(url: URL, isOriginalFile: Bool) {
        self.url = url
        self.isOriginalFile = isOriginalFile
    }
}

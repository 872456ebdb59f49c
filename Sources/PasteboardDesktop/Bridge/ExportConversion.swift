/// How a representation's bytes on the pasteboard become the bytes of one desktop target the
/// bridge offers: most targets carry them as they are, a few legacy names need another
/// encoding. Each conversion streams (`ExportEncoder`), so a large representation is never
/// held whole on its way to the desktop.
public enum ExportConversion: Sendable, Equatable {
    /// As they are.
    case none
    /// UTF-8 text to ISO 8859-1, as X11's `STRING` (and `TEXT`, which the importer reads as
    /// Latin-1 too) is defined: a character outside Latin-1, or a malformed sequence, becomes `?`.
    case utf8ToLatin1
    /// A `text/uri-list` (one URI per line, `#` comments) to GNOME's
    /// `x-special/gnome-copied-files` (`copy`, then one URI per line), which file managers paste.
    case uriListToGnomeCopiedFiles
}

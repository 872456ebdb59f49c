/// The bounds the source side checks before anything goes on the wire.
public enum SourceLimits {
    /// The longest MIME type we offer, in UTF-8 bytes. The wire carries strings up to a
    /// message's 65532 bytes, but real MIME types are short (RFC 6838 caps each name part at
    /// 127 characters) and a compositor keeps every offered string for every reader: a longer
    /// one is a caller's mistake, refused with a clear error rather than a broken connection.
    public static let maxMIMETypeLength = 1024
    /// The most MIME types one source offers: every one is a request and a string the
    /// compositor stores, and a desktop offer has a handful (our text aliases and one per
    /// representation).
    public static let maxMIMETypes = 256
}

/// Why a link ended or a transfer over it failed, in words for the user.
public struct LinkError: Error, Sendable, CustomStringConvertible {
    public let description: String
    /// Whether trying again cannot help (another process runs the same link).
    public let isFatal: Bool

    public init(_ description: String, isFatal: Bool = false) {
        self.description = description
        self.isFatal = isFatal
    }
}

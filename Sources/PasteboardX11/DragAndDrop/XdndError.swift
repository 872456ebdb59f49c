/// Why an XDND message from a peer was refused. Any client can send a ClientMessage to our
/// windows, so a message is checked field by field before a session acts on it, and a bad one
/// is an error to log and ignore, never a trap.
public enum XdndError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The ClientMessage's type is none of XDND's six messages.
    case notXdnd(type: Atom)
    /// XdndEnter asked for a version we do not speak (below 3 or above 5).
    case unsupportedVersion(UInt32)
    /// A field is out of its range (a window of None, a count over the bound): `detail` says which.
    case malformed(String)

    public var description: String {
        switch self {
        case let .notXdnd(type): "\(type) is no XDND message"
        case let .unsupportedVersion(version): "XDND version \(version) is not spoken here (3 to 5 are)"
        case let .malformed(detail): "malformed XDND message: \(detail)"
        }
    }
}

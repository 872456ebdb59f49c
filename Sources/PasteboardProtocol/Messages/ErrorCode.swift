public import PasteboardJSON

/// Stable error codes carried by `error` messages. The raw values are part of protocol v1:
/// they never change meaning, and clients may match on them.
public enum ErrorCode: String, Sendable, Codable, CaseIterable, JSONField {
    /// The peers speak different protocol versions. Fatal.
    case versionMismatch = "version-mismatch"
    /// A frame other than `hello` arrived before the handshake finished. Fatal.
    case handshakeRequired = "handshake-required"
    /// The byte stream is not a valid frame sequence (bad kind, reserved flags, short length). Fatal.
    case malformedFrame = "malformed-frame"
    /// A length field exceeded the receiver's maximum frame length. Fatal.
    case frameTooLarge = "frame-too-large"
    /// A control message is not a JSON object of the expected shape.
    case malformedMessage = "malformed-message"
    /// A control message's `op` is not one this peer knows.
    case unknownMessage = "unknown-message"
    /// A known message arrived where it makes no sense (e.g. `welcome` sent by a client, or a request on id 0).
    case unexpectedMessage = "unexpected-message"
    /// A request was sent on an id already in flight. Fatal.
    case duplicateRequest = "duplicate-request"
    /// A sender exceeded the flow-control window it was granted.
    case flowControl = "flow-control"
    /// A field has a value outside its domain (bad pasteboard name, negative index, ...).
    case invalidArgument = "invalid-argument"
    /// A type is neither declared, a MIME type, nor a valid identifier.
    case unknownType = "unknown-type"
    /// A `declare` gave a type whose identifier another app, a declaration file of another
    /// app (or of none) or the built-in types declare differently: only its owner may change it.
    case typeConflict = "type-conflict"
    /// The pasteboard has no item at the requested index.
    case noSuchItem = "no-such-item"
    /// The item has no representation conforming to any accepted type.
    case noConformingRepresentation = "no-conforming-representation"
    /// Data exceeds a size limit of the daemon.
    case tooLarge = "too-large"
    /// The request was cancelled by the client (the terminal answer to `cancel`).
    case cancelled = "cancelled"
    /// The peer is not allowed to connect or to do this.
    case permissionDenied = "permission-denied"
    /// The source that promised the data is gone or failed to produce it.
    case sourceUnavailable = "source-unavailable"
    /// No drag session in flight has that id (or none is in flight), or it already ended.
    case noSuchSession = "no-such-session"
    /// The general pasteboard's history has no entry at the requested index.
    case noSuchEntry = "no-such-entry"
    /// The daemon could not store the data durably (a full disk, a write error); nothing changed.
    case storageFailed = "storage-failed"
    /// A `write` with `ifChangeCount` found the pasteboard changed since; nothing was written.
    case conflict = "conflict"
    /// A `write` or `clear` with `origin` (from a link) is not later than the origin of the
    /// pasteboard's current content: the change lost to a later one; nothing was written.
    case superseded = "superseded"
    /// A configured limit of the daemon was reached (connections, loads in flight on one
    /// connection, time to finish the handshake, time idle); the message names the limit.
    case limitReached = "limit-reached"
    /// The daemon is shutting down.
    case shuttingDown = "shutting-down"
    /// Anything else; the message says what.
    case `internal` = "internal"
}

/// An error reported by the peer (or detected locally) with a stable code and a human message.
public struct ProtocolError: Error, Sendable, Equatable, JSONObjectCoding, CustomStringConvertible {
    /// The stable code.
    public var code: ErrorCode
    /// One line for humans.
    public var message: String

    /// Creates an error.
    public init(_ code: ErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }

    public static var decodingStart: ProtocolError { ProtocolError(.internal, "") }

    public mutating func members<Members: JSONMembers>(_ json: inout Members) throws(Members.Failure) {
        var code = code.rawValue
        var message: String? = message
        try json.member("code", &code)
        try json.member("message", &message)
        // An unknown code from a newer peer still carries its message; a missing message is the code.
        self.code = ErrorCode(rawValue: code) ?? .internal
        self.message = message ?? code
    }
}

internal import PasteboardProtocol

extension PasteboardError {
    /// A stable error code of the daemon's (pasteboard-protocol(7), ERROR CODES). A struct rather
    /// than an enum so that a code a newer daemon adds reaches the app as itself instead of
    /// failing to decode; match on the constants (`error.code == .conflict`).
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The code as the protocol spells it ("no-such-item").
        public let rawValue: String

        public init(rawValue: String) { self.rawValue = rawValue }

        public var description: String { rawValue }

        /// The peers speak different protocol versions.
        public static let versionMismatch = Code(.versionMismatch)
        /// A request was malformed (a client bug, or the daemon's limits are outside what this client accepts).
        public static let malformedMessage = Code(.malformedMessage)
        /// The daemon does not know the request (it is older than this library: a feature it lacks).
        public static let unknownMessage = Code(.unknownMessage)
        /// A message arrived where it makes no sense (a client bug).
        public static let unexpectedMessage = Code(.unexpectedMessage)
        /// A request came before the handshake finished (a client bug).
        public static let handshakeRequired = Code(.handshakeRequired)
        /// The byte stream was not a valid frame sequence (a client bug, or not a pasteboardd).
        public static let malformedFrame = Code(.malformedFrame)
        /// A frame exceeded the receiver's maximum length.
        public static let frameTooLarge = Code(.frameTooLarge)
        /// A request id was reused while in flight (a client bug).
        public static let duplicateRequest = Code(.duplicateRequest)
        /// A sender exceeded its flow-control window (a client bug).
        public static let flowControl = Code(.flowControl)
        /// A value is outside its domain (a bad pasteboard name, a negative index, ...).
        public static let invalidArgument = Code(.invalidArgument)
        /// A type is neither declared, a MIME type, nor a valid identifier.
        public static let unknownType = Code(.unknownType)
        /// A type the app declares is declared differently by another app, a declaration file
        /// that is not the app's own, or the built-in types: only its owner may change it. An
        /// app may replace its own declarations and those of the file it installed
        /// (`TypeDeclaration.install(_:fileName:app:)`).
        public static let typeConflict = Code(.typeConflict)
        /// The pasteboard has no item at the requested index (an empty pasteboard has none).
        public static let noSuchItem = Code(.noSuchItem)
        /// The item has no representation conforming to any accepted type.
        public static let noConformingRepresentation = Code(.noConformingRepresentation)
        /// Data exceeds a size limit of the daemon.
        public static let tooLarge = Code(.tooLarge)
        /// The request was cancelled.
        public static let cancelled = Code(.cancelled)
        /// This process may not do that (another app's restricted drag, another process's item).
        public static let permissionDenied = Code(.permissionDenied)
        /// The source that promised the data is gone or failed to produce it.
        public static let sourceUnavailable = Code(.sourceUnavailable)
        /// No drag session in flight has that id (or none is in flight), or it already ended.
        public static let noSuchSession = Code(.noSuchSession)
        /// The history has no entry at the requested index.
        public static let noSuchEntry = Code(.noSuchEntry)
        /// The daemon could not store the data durably (a full disk); nothing changed.
        public static let storageFailed = Code(.storageFailed)
        /// A conditional write found the pasteboard changed since; nothing was written.
        public static let conflict = Code(.conflict)
        /// A configured limit of the daemon was reached; the message names it.
        public static let limitReached = Code(.limitReached)
        /// The daemon is shutting down.
        public static let shuttingDown = Code(.shuttingDown)
        /// Anything else; the message says what.
        public static let `internal` = Code(.internal)

        private init(_ code: ErrorCode) { rawValue = code.rawValue }
    }
}

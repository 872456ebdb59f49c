extension PasteboardConnection {
    /// How an app connects to the daemon, set once (a `static let` of the app's) and given to
    /// every call that connects: its client name, its application, the types it declares,
    /// whether a daemon is started when none runs, and the socket.
    ///
    /// Why a value: the one-call `Pasteboard.copy(_:to:using:)` and `paste(_:from:using:)` and
    /// `withConnection(_:_:)` would otherwise need the same arguments at every call site, and a
    /// call that forgot `declaring:` would connect without the app's types.
    public struct Configuration: Sendable {
        /// A short name for the daemon's logs.
        public var clientName: String
        /// The application the connections belong to (default: `clientName`): restricted drag
        /// sessions, local contexts and the app's own type declarations are shared by its connections.
        public var app: String?
        /// The app's own type declarations, declared at each connect.
        public var declaredTypes: [TypeDeclaration]
        /// Whether a daemon is started when none listens (unless `$PASTEBOARD_NO_AUTOSTART` is set).
        public var autoStart: Bool
        /// The daemon's socket.
        public var socketPath: String

        public init(
            clientName: String, app: String? = nil, declaring types: [TypeDeclaration] = [], autoStart: Bool = true,
            socketPath: String = PasteboardConnection.defaultSocketPath
        ) {
            self.clientName = clientName
            self.app = app
            self.declaredTypes = types
            self.autoStart = autoStart
            self.socketPath = socketPath
        }
    }

    /// `withConnection(socketPath:clientName:app:declaring:autoStart:_:)` with the arguments of
    /// `configuration`: connects, runs `body` on the caller's executor, and closes.
    public static func withConnection<Result: Sendable>(
        _ configuration: Configuration, isolation: isolated (any Actor)? = #isolation,
        _ body: nonisolated(nonsending) (PasteboardConnection) async throws -> Result
    ) async throws -> Result {
        try await withConnection(
            socketPath: configuration.socketPath, clientName: configuration.clientName, app: configuration.app,
            declaring: configuration.declaredTypes, autoStart: configuration.autoStart, isolation: isolation, body)
    }
}

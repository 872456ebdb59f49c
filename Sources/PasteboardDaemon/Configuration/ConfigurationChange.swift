/// What applying a new configuration to a running daemon did: the keys whose new values took
/// effect, and the keys whose new values wait for a restart (the daemon keeps their old values).
public struct ConfigurationChange: Sendable, Equatable {
    /// One key whose value differs: its name and both values, as the file writes them.
    public struct Difference: Sendable, Equatable, CustomStringConvertible {
        public let key: String
        public let old: String
        public let new: String

        /// `key: old -> new`.
        public var description: String { "\(key): \(old) -> \(new)" }
    }

    /// Keys whose new values apply from now on: to new connections and new requests.
    public var applied: [Difference] = []
    /// Keys whose new values need a restart; the running values stay.
    public var needsRestart: [Difference] = []

    /// True when the new configuration was the running one.
    public var isEmpty: Bool { applied.isEmpty && needsRestart.isEmpty }
}

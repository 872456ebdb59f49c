/// What applying a new configuration to a running daemon did: the keys whose new values took
/// effect, and the keys whose new values wait for a restart (the daemon keeps their old values).
package struct ConfigurationChange: Sendable, Equatable {
    /// One key whose value differs: its name and both values, as the file writes them.
    package struct Difference: Sendable, Equatable, CustomStringConvertible {
        package let key: String
        package let old: String
        package let new: String

        /// `key: old -> new`.
        package var description: String { "\(key): \(old) -> \(new)" }
    }

    /// Keys whose new values apply from now on: to new connections and new requests.
    package var applied: [Difference] = []
    /// Keys whose new values need a restart; the running values stay.
    package var needsRestart: [Difference] = []

    /// True when the new configuration was the running one.
    package var isEmpty: Bool { applied.isEmpty && needsRestart.isEmpty }
}

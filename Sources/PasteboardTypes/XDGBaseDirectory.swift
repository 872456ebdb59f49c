/// The XDG Base Directory rules the type registry needs: where user configuration lives and
/// which data directories to search. Pure functions of an environment dictionary.
enum XDGBaseDirectory {
    /// Every environment variable these rules read.
    static let variables = ["HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_DATA_DIRS", "XDG_CACHE_HOME"]

    /// The data directories searched when `XDG_DATA_DIRS` is unset or empty.
    static let defaultDataDirectories = ["/usr/local/share", "/usr/share"]

    /// `$<variable>` when it is an absolute path, else `$HOME/<fallback>`; `nil` when neither is absolute.
    ///
    /// A relative or empty value is ignored, as the XDG Base Directory spec requires.
    static func home(_ variable: String, fallback: String, environment: [String: String]) -> String? {
        home(variable, fallback: fallback) { environment[$0] }
    }

    /// `home(_:fallback:environment:)` with the environment's values given by `value`.
    static func home(_ variable: String, fallback: String, value: (String) -> String?) -> String? {
        if let value = value(variable), value.hasPrefix("/") { return value }
        if let home = value("HOME"), home.hasPrefix("/") { return joined(home, fallback) }
        return nil
    }

    /// The data directories, most important first: `$XDG_DATA_HOME` (default `~/.local/share`),
    /// then each absolute entry of `$XDG_DATA_DIRS` (default `/usr/local/share:/usr/share`).
    ///
    /// Relative entries are ignored; duplicates are listed once, where they first appear.
    static func dataDirectories(environment: [String: String]) -> [String] {
        let home = Self.home("XDG_DATA_HOME", fallback: ".local/share", environment: environment)
        let listed = environment["XDG_DATA_DIRS"] ?? ""
        let system = listed.isEmpty
            ? defaultDataDirectories
            : listed.split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
        var seen = Set<String>()
        return ((home.map { [$0] } ?? []) + system).filter { seen.insert($0).inserted }
    }

    /// `directory` + `/` + `relative`, without doubling the slash.
    static func joined(_ directory: String, _ relative: String) -> String {
        directory.hasSuffix("/") ? directory + relative : directory + "/" + relative
    }
}

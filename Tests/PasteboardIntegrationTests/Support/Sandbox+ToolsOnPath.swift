import Foundation

extension Sandbox {
    /// The environment for a program that runs `pb` by name, as a user's configuration does (an
    /// editor's clipboard provider, tmux's copy-command): this sandbox's, with the directory of
    /// the built `pb` first on `PATH` (so an installed `pb` is not the one tested), and without
    /// `TMUX`, so that a test run inside the developer's tmux neither nests nor reaches it.
    func environmentWithToolsOnPath() -> [String: String] {
        var environment = environment()
        environment["PATH"] = Binaries.directory.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment.removeValue(forKey: "TMUX")
        environment.removeValue(forKey: "TMUX_PANE")
        return environment
    }
}

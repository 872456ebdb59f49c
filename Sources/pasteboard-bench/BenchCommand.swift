import ArgumentParser

/// `pasteboard-bench`: measurements of a real pasteboardd it starts itself, each reported as
/// figures and as ratios against a baseline measured in the same run.
@main
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pasteboard-bench",
        abstract: "Measure a pasteboardd started for the run against baselines measured in the same run.",
        discussion: """
            Each run starts its own pasteboardd (the one next to this program) on a socket in a \
            new temporary directory, with its state there too, and stops it at the end. Build \
            with 'swift build -c release' for figures worth comparing.
            """,
        subcommands: [Run.self, Soak.self, RelayHelper.self],
        defaultSubcommand: Run.self
    )
}

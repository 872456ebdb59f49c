import ArgumentParser

/// The relay process of the large-transfer baseline: copies descriptor 3 to descriptor 4 until
/// 3 ends, as a hand-rolled relay daemon would. Not for people to run.
struct RelayHelper: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "relay-helper", shouldDisplay: false)

    /// The relay's read size: coreutils' cat uses 128 KiB.
    static let chunk = 128 << 10

    func run() {
        BlockingCopy.relay(from: 3, to: 4, chunk: Self.chunk)
    }
}

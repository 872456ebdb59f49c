import PasteboardDaemonFuzzing
import PasteboardFuzzing

/// Every target `pasteboard-fuzz` drives: the decoders and state machines of PasteboardFuzzing,
/// and the daemon's request handling (PasteboardDaemonFuzzing), which live in two modules so
/// that the tests replaying the decoders' inputs do not build the daemon.
enum FuzzedTarget: Sendable {
    case decoder(FuzzTarget)
    case requests

    /// Every target, in the order the usage line lists them.
    static let all: [FuzzedTarget] = FuzzTarget.allCases.map(FuzzedTarget.decoder) + [.requests]

    /// The target named `name` (`frames`, `requests`); nil for no target.
    init?(name: String) {
        if name == RequestFuzzing.name {
            self = .requests
        } else if let decoder = FuzzTarget(rawValue: name) {
            self = .decoder(decoder)
        } else {
            return nil
        }
    }

    /// The target named by `argument`: `frames`, or `--target=frames` (the spelling libFuzzer's
    /// own child processes get).
    init?(argument: String) {
        let prefix = "--target="
        self.init(name: argument.hasPrefix(prefix) ? String(argument.dropFirst(prefix.count)) : argument)
    }

    /// The name on the command line and under Tests/Fixtures/fuzz.
    var name: String {
        switch self {
        case .decoder(let target): target.rawValue
        case .requests: RequestFuzzing.name
        }
    }

    /// Runs `input` through the target, checking its invariants; a one-line summary.
    @discardableResult
    func run(_ input: UnsafeRawBufferPointer) -> String {
        switch self {
        case .decoder(let target): target.run(input)
        case .requests: RequestFuzzing.run(input)
        }
    }

    /// `run(_:)` on an array of bytes.
    @discardableResult
    func run(_ input: [UInt8]) -> String {
        input.withUnsafeBytes { run($0) }
    }
}

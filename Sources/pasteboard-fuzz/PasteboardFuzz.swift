#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PasteboardFuzzing

// `pasteboard-fuzz TARGET [ARGUMENT…]`: fuzz one decoder, or replay inputs through it.
//
// Built with `--sanitize fuzzer -Xswiftc -DFUZZING` it is a libFuzzer binary (LibFuzzer.swift):
// the arguments after TARGET are libFuzzer's (options, corpus directories, or files to run once).
// Built normally it is a replayer: each ARGUMENT is a file or a directory of files, run through the
// target's invariant checks with a one-line summary each; a broken invariant traps, as under libFuzzer.

#if !FUZZING
/// The replayer's entry point.
@main
enum PasteboardFuzz {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard let first = arguments.first, let target = FuzzedTarget(argument: first) else {
            printUsage()
            exit(2)
        }
        exit(Replayer.run(target, paths: Array(arguments.dropFirst())))
    }
}
#endif

/// Prints the command line's shape on standard error.
func printUsage() {
    printError("usage: pasteboard-fuzz \(FuzzedTarget.all.map(\.name).joined(separator: "|")) [ARGUMENT…]")
}

/// Writes `line` to standard error.
func printError(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
}

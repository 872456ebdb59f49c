#if FUZZING
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Built with `--sanitize fuzzer`, SwiftPM links libFuzzer's `main`, which calls the two C entry
// points below; this module then has no `main` of its own (see PasteboardFuzz.swift).

/// The target being fuzzed; set once by `LLVMFuzzerInitialize` before the first input.
nonisolated(unsafe) private var fuzzedTarget = FuzzedTarget.decoder(.frames)

/// Picks the target from the command line, before libFuzzer parses it.
///
/// A first argument naming a target (`frames`) is rewritten to `--target=frames`: libFuzzer ignores
/// arguments starting with `--` and passes them on to the processes it starts itself (crash
/// minimisation, `-fork`), which find the target there.
@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> CInt {
    let count = Int(argc.pointee)
    guard let vector = argv.pointee else { return 0 }
    let arguments = (0..<count).map { vector[$0].map { String(cString: $0) } ?? "" }
    if count > 1, let target = FuzzedTarget(name: arguments[1]) {
        fuzzedTarget = target
        vector[1] = strdup("--target=\(target.name)")
    } else if let target = arguments.dropFirst().lazy.compactMap({ $0.hasPrefix("--target=") ? FuzzedTarget(argument: $0) : nil }).first {
        fuzzedTarget = target
    } else {
        printUsage()
        exit(2)
    }
    // Swift's backtracer claims the crash signals at startup, and libFuzzer does not replace a
    // handler already installed: without this a trap would end the process without saving the input.
    for number in [SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGFPE, SIGABRT] {
        _ = signal(number, SIG_DFL)
    }
    return 0
}

/// Runs one input through the fuzzed target; a broken invariant traps, which libFuzzer reports.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    fuzzedTarget.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}
#endif
import PasteboardFuzzing

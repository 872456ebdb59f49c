import Foundation
import XCTest

/// The third-party client package, Tests/Interop/NotesApp, built with the toolchain on PATH
/// against this checkout of the library (by path), once per test run.
///
/// Its scratch path is `.build/client-package` in the repository: out of git, and kept between
/// local runs so that a rerun rebuilds only what changed. A clean clone (CI) builds the
/// library's dependencies a second time there, a minute or two on two cores. Both builds of
/// the package (the `notes` app, the README snippets) share it, so the second pays for its own
/// target only.
enum ClientPackage {
    /// The repository's root, from this file's path.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()  // Tests/PasteboardIntegrationTests/Support/
    static let directory = repository.appendingPathComponent("Tests/Interop/NotesApp")
    static let scratchPath = repository.appendingPathComponent(".build/client-package")
    /// Where the README snippets' sources are written (git-ignored).
    static let generatedSnippets = directory.appendingPathComponent("Snippets/Generated")

    /// Why the package did not build, with the build's output.
    struct BuildFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// The `notes` executable, built on first use; the build's failure otherwise.
    static func notes() throws -> String {
        try notesBuild.get()
    }

    private static let notesBuild: Result<String, BuildFailure> = {
        do {
            let result = try build(["--product", "notes"])
            guard result.status == 0 else {
                return .failure(BuildFailure(description: "swift build --product notes failed:\n\(result.output)"))
            }
            return .success(scratchPath.appendingPathComponent("debug/notes").path)
        } catch {
            return .failure(BuildFailure(description: "swift build could not run: \(error)"))
        }
    }()

    /// The `swift` on PATH.
    static func swift() throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        guard let swift = path.split(separator: ":").map({ "\($0)/swift" }).first(where: FileManager.default.isExecutableFile) else {
            throw BuildFailure(description: "no swift on PATH (\(path))")
        }
        return swift
    }

    /// Runs `swift build` on the package with `arguments` and the shared scratch path, printing
    /// how long it took (CI's log then shows what the package adds to a run).
    static func build(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let swift = try swift()
        let sandbox = try Sandbox()
        defer { sandbox.remove() }
        let arguments = ["build", "--package-path", directory.path, "--scratch-path", scratchPath.path] + arguments
        let started = Date()
        var result = try runTool(swift, arguments, environment: ProcessInfo.processInfo.environment, in: sandbox)
        if result.status != 0, isStale(result.stdoutText + result.stderr) {
            // SwiftPM keeps a stale list of a target's sources in the scratch path after files
            // moved, went or came (a checkout of another commit): that build starts over, once.
            try? FileManager.default.removeItem(at: scratchPath)
            result = try runTool(swift, arguments, environment: ProcessInfo.processInfo.environment, in: sandbox)
        }
        print("client package: swift \(arguments.joined(separator: " ")): exit \(result.status) after \(String(format: "%.1f", Date().timeIntervalSince(started))) s")
        return (result.status, result.stdoutText + result.stderr)
    }

    /// Whether a failed build's `output` shows a stale scratch path rather than an error of the
    /// client's: a source file missing, or an error in this repository's own `Sources`, which
    /// the package's own build compiled (a file added since the scratch path listed them, such
    /// as a new extension whose members the others call, is not seen).
    private static func isStale(_ output: String) -> Bool {
        output.contains("because of missing inputs") || output.contains(repository.appendingPathComponent("Sources").path + "/")
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Finding and reading fuzz inputs on disk: seed corpora, crash regressions, files given to the replayer.
public enum FuzzCorpus {
    /// Why an input could not be read.
    public struct ReadError: Error, CustomStringConvertible {
        /// The path that could not be read.
        public var path: String
        /// What went wrong.
        public var reason: String

        public var description: String { "\(path): \(reason)" }
    }

    /// The input files at `path`: the file itself, or a directory's non-hidden files sorted by name
    /// (not recursive). A missing path is an error.
    public static func inputs(at path: String) throws(ReadError) -> [String] {
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ReadError(path: path, reason: "no such file or directory")
        }
        guard isDirectory else { return [path] }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: path)
        } catch {
            throw ReadError(path: path, reason: "cannot list directory: \(error)")
        }
        let base = path.hasSuffix("/") ? path : path + "/"
        return names.filter { !$0.hasPrefix(".") }.sorted().map { base + $0 }.filter {
            var isDirectory = false
            return FileManager.default.fileExists(atPath: $0, isDirectory: &isDirectory) && !isDirectory
        }
    }

    /// The bytes of the file at `path`.
    public static func contents(of path: String) throws(ReadError) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ReadError(path: path, reason: "cannot read file")
        }
        return Array(data)
    }
}

extension FuzzCorpus {
    /// The committed inputs of `target` under `directory` (the repository's `Tests/Fixtures/fuzz`):
    /// the files of `<target>/seeds` and, once a crash was found, `<target>/regressions`.
    public static func committedInputs(of target: FuzzTarget, in directory: String) throws(ReadError) -> [String] {
        try committedInputs(ofTargetNamed: target.rawValue, in: directory)
    }

    /// The committed inputs of the target named `name` (also those of other modules, `requests`).
    public static func committedInputs(ofTargetNamed name: String, in directory: String) throws(ReadError) -> [String] {
        let base = (directory.hasSuffix("/") ? directory : directory + "/") + name
        let regressions = base + "/regressions"
        let seeds = try inputs(at: base + "/seeds")
        return FileManager.default.fileExists(atPath: regressions) ? try seeds + inputs(at: regressions) : seeds
    }
}

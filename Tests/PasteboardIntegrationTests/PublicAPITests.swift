import Foundation
import XCTest

/// The public surface of the two library products, `Pasteboard` and `PasteboardTypes`, is the
/// app author's: read from the built modules' symbol graphs (`swift-symbolgraph-extract`), it
/// must match the baseline in `PublicAPI/` line for line, and no public declaration may name a
/// type of a module an app cannot import (the wire, the JSON codec, NIO, the C shims).
///
/// A change to the public API fails here until the baseline is written again, on purpose:
/// `PASTEBOARD_WRITE_API_BASELINE=1 swift test --filter PublicAPITests` writes it, and the
/// diff shows in review what apps gain or lose.
final class PublicAPITests: XCTestCase {
    /// The modules apps import (the library products).
    private static let products = ["Pasteboard", "PasteboardTypes"]
    /// Modules whose types a public declaration may name.
    private static let nameable: Set<String> = ["Pasteboard", "PasteboardTypes", "Swift", "_Concurrency", "Foundation", "FoundationEssentials", "Synchronization"]

    private var baselineDirectory: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("PublicAPI")
    }

    func testThePublicAPIIsTheBaselineAndNamesOnlyTypesAnAppCanImport() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.extractor) else { throw XCTSkip("\(Self.extractor) is not in this toolchain") }
        for module in Self.products {
            let symbols = try Self.publicSymbols(of: module)
            XCTAssertGreaterThan(symbols.count, 20, "\(module): the symbol graph was read")
            // No public declaration names a type of a module apps cannot import.
            for symbol in symbols {
                let foreign = symbol.referencedModules.subtracting(Self.nameable)
                XCTAssertTrue(foreign.isEmpty, "\(module): \(symbol.line) names types of \(foreign.sorted())")
            }
            let lines = symbols.map(\.line).sorted()
            let baseline = baselineDirectory.appendingPathComponent("\(module).txt")
            let text = lines.joined(separator: "\n") + "\n"
            if ProcessInfo.processInfo.environment["PASTEBOARD_WRITE_API_BASELINE"] == "1" {
                try FileManager.default.createDirectory(at: baselineDirectory, withIntermediateDirectories: true)
                try Data(text.utf8).write(to: baseline)
                continue
            }
            let expected = (try? String(contentsOf: baseline, encoding: .utf8)) ?? ""
            let expectedLines = Set(expected.split(separator: "\n").map(String.init))
            let added = lines.filter { !expectedLines.contains($0) }
            let removed = expectedLines.subtracting(lines).sorted()
            XCTAssertTrue(added.isEmpty && removed.isEmpty, """
                \(module)'s public API differs from \(baseline.path) (write it again with PASTEBOARD_WRITE_API_BASELINE=1):
                added:
                \(added.joined(separator: "\n"))
                removed:
                \(removed.joined(separator: "\n"))
                """)
        }
    }

    private static let extractor = "/opt/swift/usr/bin/swift-symbolgraph-extract"

    /// One public symbol: its kind, its path and its declaration as one line, and the modules
    /// of the types its declaration names.
    struct Symbol {
        let line: String
        let referencedModules: Set<String>
    }

    /// The public symbols of `module`, from its symbol graph (the module's own declarations
    /// and its extensions of other modules' types).
    static func publicSymbols(of module: String) throws -> [Symbol] {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("pb-api-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: output) }
        let build = Binaries.directory
        var arguments = ["-module-name", module, "-I", build.appendingPathComponent("Modules").path,
                         "-target", "x86_64-unknown-linux-gnu", "-minimum-access-level", "public", "-output-dir", output.path]
        for directory in try moduleMapDirectories(build: build) { arguments += ["-I", directory] }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: extractor)
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        // The tool is there (checked by the caller): a module it cannot read is this test's failure.
        guard process.terminationStatus == 0 else {
            XCTFail("swift-symbolgraph-extract could not read \(module): \(String(decoding: message, as: UTF8.self))")
            return []
        }
        var symbols: [Symbol] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: output.path) where file.hasSuffix(".symbols.json") {
            let data = try Data(contentsOf: output.appendingPathComponent(file))
            let graph = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
            for symbol in graph["symbols"] as? [[String: Any]] ?? [] {
                // Members a conformance brings with it (a Collection's `map`) are the standard library's API, not ours.
                let precise = (symbol["identifier"] as? [String: Any])?["precise"] as? String ?? ""
                if precise.contains("::SYNTHESIZED::") { continue }
                let kind = (symbol["kind"] as? [String: Any])?["identifier"] as? String ?? "?"
                let path = (symbol["pathComponents"] as? [String] ?? []).joined(separator: ".")
                let fragments = symbol["declarationFragments"] as? [[String: Any]] ?? []
                let declaration = fragments.compactMap { $0["spelling"] as? String }.joined()
                let modules = Set(fragments.compactMap { $0["preciseIdentifier"] as? String }.compactMap(moduleOfMangledName))
                let extended = file == "\(module).symbols.json" ? "" : " (extending \(file.dropFirst(module.count + 1).dropLast(".symbols.json".count)))"
                symbols.append(Symbol(line: "\(kind) \(path)\(extended): \(declaration)", referencedModules: modules))
            }
        }
        return symbols
    }

    /// The module of a Swift USR (`s:14PasteboardJSON8JSONTapeV`): the first length-prefixed
    /// name after `s:`; nil for the standard library's substitutions (`s:Si`) and C names.
    static func moduleOfMangledName(_ usr: String) -> String? {
        guard usr.hasPrefix("s:") else { return nil }
        let rest = usr.dropFirst(2)
        let digits = rest.prefix { $0.isNumber }
        guard let length = Int(digits), length > 0 else { return nil }
        return String(rest.dropFirst(digits.count).prefix(length))
    }

    /// The directories of the module maps of the C modules the libraries depend on (NIO's,
    /// swift-atomics', ours), which the extractor must find to load them: those SwiftPM wrote
    /// for each target (`<build>/<Target>.build/module.modulemap`) and the C targets' own
    /// (`Sources/<Target>/include/` of this package and its checkouts); no deeper, where a
    /// module's second map (a plugin's build, a client package's scratch path) would clash.
    static func moduleMapDirectories(build: URL) throws -> [String] {
        let manager = FileManager.default
        var directories: Set<String> = []
        for target in (try? manager.contentsOfDirectory(atPath: build.path)) ?? [] where target.hasSuffix(".build") {
            let directory = build.appendingPathComponent(target).path
            if manager.fileExists(atPath: directory + "/module.modulemap") { directories.insert(directory) }
        }
        let repository = ClientPackage.repository
        let checkouts = repository.appendingPathComponent(".build/checkouts").path
        let packages = [repository.path] + ((try? manager.contentsOfDirectory(atPath: checkouts)) ?? []).map { checkouts + "/" + $0 }
        for package in packages {
            for target in (try? manager.contentsOfDirectory(atPath: package + "/Sources")) ?? [] {
                let directory = package + "/Sources/" + target + "/include"
                if manager.fileExists(atPath: directory + "/module.modulemap") { directories.insert(directory) }
            }
        }
        return directories.sorted()
    }
}

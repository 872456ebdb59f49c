import Foundation
import XCTest

/// Every Swift block of README.md and of the man pages compiles against the library, as a
/// reader would paste it into an app (Swift 6 mode, warnings as errors), in the client
/// package's ReadmeSnippets target beside its committed context (the names the blocks take as
/// given). See `SwiftSnippet` for where blocks are found and how they are wrapped.
final class ReadmeSnippetTests: XCTestCase {
    /// README.md, then the man pages, in order.
    private func snippets() throws -> [SwiftSnippet] {
        let readme = ClientPackage.repository.appendingPathComponent("README.md").path
        var snippets = SwiftSnippet.markdownBlocks(in: try String(contentsOfFile: readme, encoding: .utf8), document: readme)
        let manDirectory = ClientPackage.repository.appendingPathComponent("man")
        for page in try FileManager.default.contentsOfDirectory(atPath: manDirectory.path).sorted()
        where page.range(of: #"\.[0-9]$"#, options: .regularExpression) != nil {
            let path = manDirectory.appendingPathComponent(page).path
            snippets += SwiftSnippet.manPageBlocks(in: try String(contentsOfFile: path, encoding: .utf8), document: path)
        }
        return snippets
    }

    /// Writes each block's source into Snippets/Generated, leaving files whose content is
    /// unchanged alone (so that a rerun recompiles nothing new) and removing stale ones.
    private func generate(_ snippets: [SwiftSnippet]) throws {
        let directory = ClientPackage.generatedSnippets
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let files = Dictionary(uniqueKeysWithValues: snippets.map { ("\($0.identifier).swift", $0.generatedSource) })
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) where files[name] == nil {
            try FileManager.default.removeItem(at: directory.appendingPathComponent(name))
        }
        for (name, source) in files {
            let url = directory.appendingPathComponent(name)
            if (try? String(contentsOf: url, encoding: .utf8)) != source {
                try source.write(to: url, atomically: true, encoding: .utf8)
            }
        }
    }

    func testEverySwiftBlockOfTheReadmeAndTheManPagesCompiles() throws {
        let snippets = try snippets().filter { !$0.isPackageManifest }
        XCTAssertGreaterThanOrEqual(snippets.count, 3, "README.md's Using the library section shows Swift blocks: were they found?")
        try generate(snippets)
        let build = try ClientPackage.build(["--target", "ReadmeSnippets"])
        let errors = SnippetDiagnostics(output: build.output, snippets: snippets)
        for snippet in snippets {
            guard let first = errors.bySnippet[snippet.identifier]?.first else { continue }
            let count = errors.bySnippet[snippet.identifier]?.count ?? 0
            XCTFail("\(snippet.location): this Swift block (lines \(snippet.codeLines.lowerBound)–\(snippet.codeLines.upperBound)) does not compile: \(first)"
                + (count > 1 ? " (and \(count - 1) more error\(count > 2 ? "s" : ""))" : ""))
        }
        if build.status != 0 && errors.bySnippet.isEmpty {
            XCTFail("the snippets did not build, and no error names a block (the context file?):\n\(build.output)")
        }
        if !errors.elsewhere.isEmpty {
            XCTFail("errors outside the blocks (Snippets/ReadmeSnippetContext.swift?):\n\(errors.elsewhere.joined(separator: "\n"))")
        }
    }

    /// The README's `Package.swift` lines load as the manifest of an app's package placed
    /// where they say this repository is (`swift package describe` checks the dependency's
    /// identity against the `.product(package:)` it names), and name products this package has.
    func testThePackageManifestBlockDescribesAnAppPackageUsingThisOne() throws {
        let manifests = try snippets().filter(\.isPackageManifest)
        XCTAssertEqual(manifests.count, 1, "README.md shows the Package.swift lines a user needs")
        let products = try rootProducts()
        for manifest in manifests {
            let sandbox = try Sandbox()
            defer { sandbox.remove() }
            let relative = try XCTUnwrap(manifest.dependencyPath, "\(manifest.location): the manifest shows a path dependency")
            let app = sandbox.path("apps/notes")
            try FileManager.default.createDirectory(atPath: app + "/Sources/notes", withIntermediateDirectories: true)
            try "print(1)\n".write(toFile: app + "/Sources/notes/main.swift", atomically: true, encoding: .utf8)
            try manifest.code.joined(separator: "\n").write(toFile: app + "/Package.swift", atomically: true, encoding: .utf8)
            // The repository where the manifest's path says it is.
            let target = URL(fileURLWithPath: app).appendingPathComponent(relative).standardizedFileURL.path
            try FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: target, withDestinationPath: ClientPackage.repository.path)
            let described = try runTool(try ClientPackage.swift(), ["package", "--package-path", app, "describe"],
                                        environment: ProcessInfo.processInfo.environment, in: sandbox)
            XCTAssertEqual(described.status, 0, "\(manifest.location): swift package describe: \(described.stderr)")
            for product in manifest.productNames {
                XCTAssertTrue(products.contains(product), "\(manifest.location): no product '\(product)' (the package has \(products.sorted()))")
            }
        }
    }

    /// The library products the repository's Package.swift declares (read as text: `swift
    /// package` on the repository would wait for the lock the running `swift test` holds).
    private func rootProducts() throws -> Set<String> {
        let manifest = try String(contentsOf: ClientPackage.repository.appendingPathComponent("Package.swift"), encoding: .utf8)
        let names = manifest.components(separatedBy: ".library(name: \"").dropFirst().compactMap { $0.split(separator: "\"").first.map(String.init) }
        XCTAssertFalse(names.isEmpty, "Package.swift declares library products")
        return Set(names)
    }

    func testAManPageSwiftBlockIsFoundByItsMarkerWithItsEscapesUndone() {
        let page = """
            .SH EXAMPLES
            .EX
            pb paste \\-t text
            .EE
            .\\" swift
            .EX
            let text = try await pasteboard.load(String.self)
            \\&.init(\\(dqa\\-b\\(dq) \\e \\(aq
            .EE
            """
        let snippets = SwiftSnippet.manPageBlocks(in: page, document: "/man/pb.1")
        XCTAssertEqual(snippets.map(\.line), [6], "only the marked block, named by its .EX line")
        XCTAssertEqual(snippets.first?.code, ["let text = try await pasteboard.load(String.self)", ".init(\"a-b\") \\ '"])
        XCTAssertEqual(snippets.first?.location, "pb.1:6")
    }

    func testABlockThatDeclaresATypeStaysAtFileScopeAndStatementsAreWrapped() {
        let text = "```swift\n@MainActor final class Model {}\n```\n\n```swift\nimport Pasteboard\nlet x = 1\n```\n"
        let snippets = SwiftSnippet.markdownBlocks(in: text, document: "/r/README.md")
        XCTAssertEqual(snippets.map(\.declaresTypes), [true, false])
        let wrapped = snippets[1].generatedSource
        XCTAssertTrue(wrapped.contains("func snippet_README_md_L5() async throws {\n#sourceLocation(file: \"/r/README.md\", line: 6)\n\nlet x = 1\n"),
                      "the import is blanked in place and the code keeps the README's line numbers:\n\(wrapped)")
    }
}

/// The compiler's errors in a build of the snippets, by block: an error on a document's line
/// belongs to the block holding that line; one in a generated file (its wrapper) to that
/// file's block.
struct SnippetDiagnostics {
    private(set) var bySnippet: [String: [String]] = [:]
    private(set) var elsewhere: [String] = []

    init(output: String, snippets: [SwiftSnippet]) {
        var seen = Set<String>()
        for line in output.split(separator: "\n").map(String.init) where line.contains(": error: ") && line.hasPrefix("/") {
            guard seen.insert(line).inserted else { continue }
            let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            let path = String(fields[0]), number = fields.count > 1 ? Int(fields[1]) : nil
            let shown = line.replacingOccurrences(of: (path as NSString).deletingLastPathComponent + "/", with: "")
            let owner = snippets.first { $0.document == path && number.map($0.codeLines.contains) == true }
                ?? snippets.first { path.hasSuffix("/\($0.identifier).swift") }
            if let owner { bySnippet[owner.identifier, default: []].append(shown) } else { elsewhere.append(line) }
        }
    }
}

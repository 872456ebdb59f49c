import Foundation
import XCTest

/// pb links fully statically in release builds, against FoundationEssentials only: a file of
/// the modules it is made of that imports all of Foundation unguarded links libFoundation,
/// whose CoreFoundation symbols are not there, and the release build fails (CI builds debug
/// only, where it links). Every such import takes FoundationEssentials where it exists.
final class FoundationImportTests: XCTestCase {
    func testTheModulesPBLinksImportFoundationEssentialsWhereItExists() throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let modules = ["pb", "Pasteboard", "PasteboardCLI", "PasteboardProtocol", "PasteboardTypes"]
        var offenders: [String] = []
        for module in modules {
            let directory = repository.appendingPathComponent("Sources/\(module)")
            let files = FileManager.default.enumerator(atPath: directory.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
            XCTAssertFalse(files.isEmpty, "no sources found in \(directory.path)")
            for file in files {
                let lines = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8).components(separatedBy: "\n")
                for (index, line) in lines.enumerated() where line.trimmingCharacters(in: .whitespaces) == "import Foundation" {
                    let guarded = index >= 1 && lines[index - 1].trimmingCharacters(in: .whitespaces) == "#else"
                        && lines[..<index].contains { $0.contains("canImport(FoundationEssentials)") }
                    if !guarded { offenders.append("Sources/\(module)/\(file):\(index + 1)") }
                }
            }
        }
        XCTAssertEqual(offenders, [], "import Foundation without `#if canImport(FoundationEssentials)` first")
    }
}

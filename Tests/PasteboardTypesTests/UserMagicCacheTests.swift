import Foundation
@testable import PasteboardTypes
import XCTest

/// `pb copy` from stdin sniffs with the user's magic patterns from one cache file while
/// `types.d` is unchanged, instead of reading and parsing every declaration file.
final class UserMagicCacheTests: XCTestCase {
    private var root = ""
    private var types: String { root + "/config/pasteboard/types.d" }
    private var cache: String { root + "/cache/pasteboard/types-magic.cache" }
    private var environment: [String: String] { ["HOME": root, "XDG_CONFIG_HOME": root + "/config", "XDG_CACHE_HOME": root + "/cache"] }

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("pb-magic-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: types, withIntermediateDirectories: true)
        // Many files without magic, and one whose type has it, with a parent from another file.
        for index in 0..<50 {
            try write("t\(index).json", #"{"types":[{"identifier":"com.example.t\#(index)","conformsTo":["public.data"]}]}"#)
        }
        try write("a-parent.json", #"{"types":[{"identifier":"com.example.doc","conformsTo":["public.data"]}]}"#)
        try write("b-note.json", #"{"types":[{"identifier":"com.example.note","conformsTo":["com.example.doc"],"magic":[{"offset":0,"bytes":"4e4f5445"}]}]}"#)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: root)
    }

    private func write(_ name: String, _ json: String) throws {
        try Data(json.utf8).write(to: URL(fileURLWithPath: types + "/" + name))
    }

    private func sniffed(_ text: String) -> TypeIdentifier {
        TypeRegistry.sniff(prefix: Array(text.utf8), isComplete: true) { self.environment[$0] }
    }

    func testTheCacheServesSniffingUntilTypesDChanges() throws {
        XCTAssertEqual(sniffed("NOTE: milk"), "com.example.note", "the user's magic, from loading the files")
        XCTAssertTrue(FileManager.default.fileExists(atPath: cache), "the load wrote the cache")
        XCTAssertEqual(sniffed("plain words"), .utf8PlainText)

        // The cache is what answers while types.d is unchanged: a cache that says otherwise wins.
        let original = try Data(contentsOf: URL(fileURLWithPath: cache))
        let edited = String(decoding: original, as: UTF8.self).replacingOccurrences(of: "com.example.note", with: "com.example.other")
        try Data(edited.utf8).write(to: URL(fileURLWithPath: cache))
        XCTAssertEqual(sniffed("NOTE: milk"), "com.example.other", "answered from the cache, not the files")

        // Any change to types.d (a file added) makes the cache stale: the files are read again.
        try write("c-more.json", #"{"types":[{"identifier":"com.example.more","conformsTo":["public.data"]}]}"#)
        XCTAssertEqual(sniffed("NOTE: milk"), "com.example.note")
        XCTAssertFalse(String(decoding: try Data(contentsOf: URL(fileURLWithPath: cache)), as: UTF8.self).contains("com.example.other"), "written again")
    }

    func testACacheOthersMayWriteIsNotTrusted() throws {
        XCTAssertEqual(sniffed("NOTE: milk"), "com.example.note")
        let edited = String(decoding: try Data(contentsOf: URL(fileURLWithPath: cache)), as: UTF8.self).replacingOccurrences(of: "com.example.note", with: "com.example.other")
        try Data(edited.utf8).write(to: URL(fileURLWithPath: cache))
        XCTAssertEqual(chmod(cache, 0o666), 0)
        XCTAssertEqual(sniffed("NOTE: milk"), "com.example.note", "a group- or world-writable cache is ignored")
    }

    func testTheCachedPatternsSniffAsTheWholeRegistryDoes() throws {
        let registry = TypeRegistry.loading(environment: environment).registry
        for sample in ["NOTE: x", "\u{89}PNG\r\n\u{1a}\n....", "%PDF-1.7", "just text", ""] {
            let whole = registry.sniff(prefix: Array(sample.utf8), isComplete: true, filename: nil)
            _ = sniffed(sample)  // writes the cache on the first call
            XCTAssertEqual(sniffed(sample), whole, "\(sample.debugDescription)")
        }
    }
}

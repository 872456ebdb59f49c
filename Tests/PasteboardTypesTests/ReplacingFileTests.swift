import Foundation
import PasteboardTypes
import XCTest

/// `TypeRegistry.loading(userTypesDirectory:replacingFile:with:)`: the directory as it would load
/// with one file's contents changed, added or removed, without touching the files.
final class ReplacingFileTests: XCTestCase {
    private var directory: String!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("pasteboard-overlay-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try Data(#"{"types":[{"identifier":"com.example.x","conformsTo":["public.data"]}]}"#.utf8)
            .write(to: URL(fileURLWithPath: directory + "/a.json"))
        try Data(#"{"types":[{"identifier":"com.example.y","conformsTo":["com.example.x"]}]}"#.utf8)
            .write(to: URL(fileURLWithPath: directory + "/b.json"))
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: directory)
    }

    func testAFileReplacedAddedOrRemovedLoadsAsIfWrittenAndNothingIsTouched() throws {
        let text = Data(#"{"types":[{"identifier":"com.example.x","conformsTo":["public.text"]}]}"#.utf8)
        let replaced = TypeRegistry.loading(userTypesDirectory: directory, replacingFile: "a.json", with: text)
        XCTAssertEqual(replaced.errors, [])
        XCTAssertTrue(replaced.registry.conforms("com.example.y", to: .text))

        let removed = TypeRegistry.loading(userTypesDirectory: directory, replacingFile: "a.json", with: nil)
        XCTAssertEqual(removed.errors.map(\.description), ["\(directory!)/b.json: types[0].conformsTo[0]: unknown parent type 'com.example.x'"])

        let added = TypeRegistry.loading(
            userTypesDirectory: directory, replacingFile: "0.json",
            with: Data(#"{"types":[{"identifier":"com.example.x","conformsTo":["public.data"]}]}"#.utf8))
        XCTAssertEqual(added.errors.map(\.description), ["\(directory!)/a.json: types[0].identifier: type 'com.example.x' is already declared by \(directory!)/0.json"])
        XCTAssertEqual(added.registry.source(of: "com.example.x"), directory + "/0.json")

        let ignored = TypeRegistry.loading(userTypesDirectory: directory, replacingFile: "c.txt", with: Data("not json".utf8))
        XCTAssertEqual(ignored.errors, [], "a name not ending in .json is not read")

        let unchanged = TypeRegistry.loading(userTypesDirectory: directory)
        XCTAssertEqual(unchanged.errors, [])
        XCTAssertTrue(unchanged.registry.conforms("com.example.y", to: .data))
        XCTAssertFalse(unchanged.registry.conforms("com.example.y", to: .text))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory).sorted(), ["a.json", "b.json"])
    }

    func testAMissingDirectoryHoldsOnlyTheFileGiven() {
        let missing = directory + "/nowhere"
        let result = TypeRegistry.loading(
            userTypesDirectory: missing, replacingFile: "a.json",
            with: Data(#"{"types":[{"identifier":"com.example.z","conformsTo":["public.data"]}]}"#.utf8))
        XCTAssertEqual(result.errors, [])
        XCTAssertEqual(result.registry.source(of: "com.example.z"), missing + "/a.json")
    }
}

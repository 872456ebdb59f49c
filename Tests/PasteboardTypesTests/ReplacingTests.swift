import PasteboardTypes
import XCTest

/// `TypeRegistry.replacing`: a declaration takes the place of an earlier one, and the registry
/// stays consistent (what conforms to the replaced type keeps working, or the replacement is refused).
final class ReplacingTests: XCTestCase {
    private let note = TypeDeclaration(identifier: "com.example.note", conformsTo: [.json], mimeTypes: ["application/x-note"])
    private let memo = TypeDeclaration(identifier: "com.other.memo", conformsTo: ["com.example.note"], mimeTypes: ["application/x-memo"])

    /// Built-ins, then `note` from app 'notes', then `memo` (conforming to it) from app 'other'.
    private func registry() throws -> TypeRegistry {
        let first = TypeRegistry.builtIn.replacing([.init(note, source: "app 'notes'", index: 0)])
        XCTAssertTrue(first.errors.isEmpty, "\(first.errors)")
        let second = first.registry.replacing([.init(memo, source: "app 'other'", index: 0)])
        XCTAssertTrue(second.errors.isEmpty, "\(second.errors)")
        return second.registry
    }

    func testAReplacementKeepsItsPlaceAndWhatConformsToItFollowsTheNewDeclaration() throws {
        let registry = try registry()
        var newer = note
        newer.conformsTo = [.plainText]
        newer.mimeTypes = ["application/vnd.example.note", "application/x-note"]
        let result = registry.replacing([.init(newer, source: "app 'notes'", index: 0)])
        XCTAssertTrue(result.errors.isEmpty, "\(result.errors)")
        let replaced = result.registry
        XCTAssertEqual(replaced.declaration(for: "com.example.note"), newer)
        XCTAssertEqual(replaced.declarationsInOrder.map(\.identifier), registry.declarationsInOrder.map(\.identifier), "the order stays")
        XCTAssertTrue(replaced.conforms("com.other.memo", to: .plainText), "memo follows its parent's new conformance")
        XCTAssertFalse(replaced.conforms("com.other.memo", to: .json))
        XCTAssertEqual(replaced.type(forMIMEType: "application/vnd.example.note"), "com.example.note")
        XCTAssertEqual(replaced.preferredMIMEType(for: "com.example.note"), "application/vnd.example.note")
        XCTAssertEqual(replaced.source(of: "com.other.memo"), "app 'other'")
        XCTAssertEqual(replaced.source(of: .png), "built-in")
    }

    func testAReplacementThatWouldCloseACycleThroughAnotherSourcesTypeIsRefusedAndTheOldOneStays() throws {
        let registry = try registry()
        var looping = note
        looping.conformsTo = [.json, "com.other.memo"]
        let result = registry.replacing([.init(looping, source: "app 'notes'", index: 2)])
        XCTAssertEqual(result.errors.count, 1, "\(result.errors)")
        let error = try XCTUnwrap(result.errors.first)
        XCTAssertEqual(error.position, 0)
        XCTAssertEqual(error.error.field, "types[2].conformsTo[1]")
        XCTAssertEqual(error.error.message,
                       "conformance cycle among 'com.example.note', 'com.other.memo', which would break 'com.other.memo' (declared by app 'other')")
        XCTAssertEqual(result.registry.declaration(for: "com.example.note"), note, "the old declaration stays")
    }

    func testNewDeclarationsAreCheckedAsAddingChecksThem() throws {
        let registry = try registry()
        let orphan = TypeDeclaration(identifier: "com.example.orphan", conformsTo: ["com.example.nowhere"])
        let child = TypeDeclaration(identifier: "com.example.child", conformsTo: ["com.example.orphan"])
        let bad = TypeDeclaration(identifier: "nodot", conformsTo: [.data])
        let good = TypeDeclaration(identifier: "com.example.good", conformsTo: ["com.example.later"])
        let later = TypeDeclaration(identifier: "com.example.later", conformsTo: [.data])
        let result = registry.replacing([orphan, child, bad, good, later, later].enumerated().map { .init($1, source: "app 'x'", index: $0) })
        XCTAssertEqual(result.errors.map(\.error.field), [
            "types[0].conformsTo[0]", "types[1].conformsTo[0]", "types[2].identifier", "types[5].identifier",
        ])
        XCTAssertEqual(result.errors.map(\.position), [0, 1, 2, 5])
        XCTAssertTrue(result.errors[0].error.message.contains("unknown parent type 'com.example.nowhere'"), "\(result.errors)")
        XCTAssertTrue(result.errors[1].error.message.contains("parent type 'com.example.orphan' was rejected"), "\(result.errors)")
        XCTAssertTrue(result.errors[3].error.message.contains("declared twice (first at types[4])"), "\(result.errors)")
        XCTAssertEqual(result.errors[0].error.file, "app 'x'")
        XCTAssertTrue(result.registry.conforms("com.example.good", to: .data), "parents may come later in the same list")
        XCTAssertEqual(result.registry.declarationsInOrder.suffix(2).map(\.identifier), ["com.example.good", "com.example.later"])
        XCTAssertNil(result.registry.source(of: "com.example.orphan"))
    }

    func testNothingAcceptedGivesTheSameRegistry() throws {
        let registry = try registry()
        let result = registry.replacing([.init(TypeDeclaration(identifier: "com.example.self", conformsTo: ["com.example.self"]), source: "x", index: 0)])
        XCTAssertEqual(result.errors.count, 1)
        XCTAssertEqual(result.registry.declarationsInOrder, registry.declarationsInOrder)
    }
}

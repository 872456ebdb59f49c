import PasteboardTypes
import XCTest

final class ConformanceTests: XCTestCase {
    let registry = TypeRegistry.builtIn

    func testSVGConformsToEveryAncestorThroughBothParents() {
        for ancestor: TypeIdentifier in [.image, .xml, .text, .data, .content, .item] {
            XCTAssertTrue(registry.conforms(.svgImage, to: ancestor), "svg should conform to \(ancestor)")
        }
        XCTAssertFalse(registry.conforms(.svgImage, to: .png))
        XCTAssertFalse(registry.conforms(.svgImage, to: .plainText))
    }

    func testPNGIsAnImageButNotText() {
        for ancestor: TypeIdentifier in [.png, .image, .data, .content, .item] {
            XCTAssertTrue(registry.conforms(.png, to: ancestor), "png should conform to \(ancestor)")
        }
        XCTAssertFalse(registry.conforms(.png, to: .text))
        XCTAssertFalse(registry.conforms(.png, to: .jpeg))
        XCTAssertFalse(registry.conforms(.image, to: .png), "conformance is not symmetric")
    }

    func testTextFamily() {
        XCTAssertTrue(registry.conforms(.utf8PlainText, to: .plainText))
        XCTAssertTrue(registry.conforms(.utf8PlainText, to: .text))
        XCTAssertTrue(registry.conforms(.html, to: .text))
        XCTAssertFalse(registry.conforms(.html, to: .plainText))
        XCTAssertTrue(registry.conforms(.fileURL, to: .url))
        XCTAssertFalse(registry.conforms(.url, to: .text))
    }

    func testSupertypesAreBreadthFirstNearestFirstWithoutDuplicates() {
        XCTAssertEqual(registry.supertypes(of: .svgImage), [.image, .xml, .data, .content, .text, .item])
        XCTAssertEqual(registry.supertypes(of: .utf8PlainText), [.plainText, .text, .data, .content, .item])
        XCTAssertEqual(registry.supertypes(of: .png), [.image, .data, .content, .item])
        XCTAssertEqual(registry.supertypes(of: .item), [])
    }

    func testUndeclaredIdentifiersConformOnlyToThemselves() {
        let unknown: TypeIdentifier = "com.example.unknown"
        XCTAssertTrue(registry.conforms(unknown, to: unknown))
        XCTAssertFalse(registry.conforms(unknown, to: .data))
        XCTAssertFalse(registry.conforms(unknown, to: .item))
        XCTAssertEqual(registry.supertypes(of: unknown), [])
        XCTAssertNil(registry.declaration(for: unknown))
    }

    func testEveryBuiltInParentExistsAndThereAreNoCycles() {
        let declared = Set(registry.declarations.map(\.identifier))
        for declaration in registry.declarations {
            for parent in declaration.conformsTo {
                XCTAssertTrue(declared.contains(parent), "\(declaration.identifier): parent \(parent) is not declared")
            }
            XCTAssertFalse(
                registry.supertypes(of: declaration.identifier).contains(declaration.identifier),
                "\(declaration.identifier) is its own supertype")
            if declaration.identifier != .item {
                XCTAssertTrue(registry.conforms(declaration.identifier, to: .item), "\(declaration.identifier) must reach public.item")
            }
        }
        // Independent of the registry's own checks: a depth-first walk finds no back edge.
        let parents = Dictionary(uniqueKeysWithValues: registry.declarations.map { ($0.identifier, $0.conformsTo) })
        var state: [TypeIdentifier: Int] = [:]  // 1 visiting, 2 done
        func visit(_ node: TypeIdentifier) -> Bool {
            if state[node] == 2 { return true }
            if state[node] == 1 { return false }
            state[node] = 1
            for parent in parents[node] ?? [] where !visit(parent) { return false }
            state[node] = 2
            return true
        }
        for node in parents.keys {
            XCTAssertTrue(visit(node), "cycle through \(node)")
        }
    }

    func testBuiltInsIncludeEveryNamedConstantAndAreSorted() {
        let named: [TypeIdentifier] = [
            .item, .data, .content, .text, .plainText, .utf8PlainText, .utf16PlainText, .html, .xml, .json,
            .url, .fileURL, .image, .png, .jpeg, .gif, .webp, .svgImage, .pdf, .zipArchive, .audio, .mp3,
            .movie, .mpeg4,
        ]
        for type in named {
            XCTAssertNotNil(registry.declaration(for: type), "\(type) is not declared")
        }
        let ids = registry.declarations.map(\.identifier)
        XCTAssertEqual(ids, ids.sorted())
        XCTAssertEqual(Set(ids).count, ids.count)
    }
}

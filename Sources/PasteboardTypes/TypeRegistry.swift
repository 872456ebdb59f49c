#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An immutable set of type declarations with precomputed conformance and tag lookups.
///
/// Build one with ``builtIn``, ``loading(environment:)``, ``loading(userTypesDirectory:)`` or
/// ``adding(_:source:)``; every lookup after construction is a dictionary access (O(1) on average),
/// except that dynamic types walk their shared-mime-info ancestry when a database is attached
/// (``usingSharedMIMEInfo(from:)``).
public struct TypeRegistry: Sendable {
    /// Declarations in the order they were added (built-ins first); earlier ones win tag clashes.
    private(set) var ordered: [TypeDeclaration] = []
    /// Where each declaration came from (`"built-in"`, a path, an app name).
    private(set) var sources: [TypeIdentifier: String] = [:]
    /// Declarations by identifier.
    private(set) var byIdentifier: [TypeIdentifier: TypeDeclaration] = [:]
    /// Declarations sorted by identifier.
    private(set) var sorted: [TypeDeclaration] = []
    /// Transitive supertypes of each declared type, nearest first.
    private(set) var supertypeLists: [TypeIdentifier: [TypeIdentifier]] = [:]
    /// Transitive supertypes of each declared type, as a set for O(1) conformance checks.
    private(set) var supertypeSets: [TypeIdentifier: Set<TypeIdentifier>] = [:]
    /// Normalised MIME type (with parameters, if declared so) to type.
    private(set) var mimeIndex: [String: TypeIdentifier] = [:]
    /// Lowercased filename extension to type.
    private(set) var extensionIndex: [String: TypeIdentifier] = [:]
    /// Magic patterns, in the order sniffing tries them.
    private(set) var magicTable = MagicTable([])
    /// Supertypes of a dynamic `text/*` type, nearest first.
    private(set) var dynamicTextSupertypes: [TypeIdentifier] = []
    /// Supertypes of any other dynamic type, nearest first.
    private(set) var dynamicDataSupertypes: [TypeIdentifier] = []
    /// `dynamicTextSupertypes` as a set.
    private(set) var dynamicTextSupertypeSet: Set<TypeIdentifier> = []
    /// `dynamicDataSupertypes` as a set.
    private(set) var dynamicDataSupertypeSet: Set<TypeIdentifier> = []
    /// The application each declaration file names (its `app` member), by the file's source.
    var fileApps: [String: String] = [:]
    /// Where undeclared MIME types find their parents and aliases, if anywhere (see ``usingSharedMIMEInfo(from:)``).
    var sharedMIMEInfo: LazySharedMIMEInfo?

    /// The built-in declarations: `Config/types.json`, as compiled in (``BuiltInTypes``).
    ///
    /// They are not validated again here: `BuiltInTypesTests` proves that adding them to an
    /// empty registry reports nothing and gives this registry, so a command that needs only the
    /// built-ins pays for building the indices alone.
    public static let builtIn = TypeRegistry(
        ordered: BuiltInTypes.declarations,
        sources: Dictionary(uniqueKeysWithValues: BuiltInTypes.declarations.lazy.map { ($0.identifier, "built-in") }),
        sharedMIMEInfo: nil)

    /// A registry with no declarations at all.
    static let empty = TypeRegistry(ordered: [], sources: [:], sharedMIMEInfo: nil)

    /// A registry holding exactly `declarations` (no built-ins); throws the first problem found.
    ///
    /// Use `TypeRegistry.builtIn.adding(_:source:)` to extend the built-ins instead.
    public init(declarations: [TypeDeclaration]) throws(TypeDeclarationError) {
        let result = TypeRegistry.empty.adding(declarations, source: "declarations")
        if let first = result.errors.first { throw first }
        self = result.registry
    }

    /// Returns a registry with `declarations` from `source` added; bad declarations are skipped and reported, the rest are added.
    ///
    /// Field names in errors use `types[<index in declarations>]`. A declaration is rejected for an
    /// invalid identifier or tag, an identifier that is already declared (or repeated in
    /// `declarations`), an unknown or rejected parent, or a conformance cycle.
    public func adding(
        _ declarations: [TypeDeclaration], source: String
    ) -> (registry: TypeRegistry, errors: [TypeDeclarationError]) {
        let entries = declarations.enumerated().map { (index: $0.offset, declaration: $0.element) }
        let result = adding(entries: entries, source: source, rejected: [])
        return (result.registry, result.errors)
    }

    /// All declarations, sorted by identifier.
    public var declarations: [TypeDeclaration] { sorted }

    /// The declaration of `type`; for `dyn.mime.*` types one is synthesised from the MIME type.
    ///
    /// A dynamic type's parents are `public.text` for `text/*` and `public.data` otherwise, unless
    /// shared-mime-info knows better (see ``usingSharedMIMEInfo(from:)``).
    public func declaration(for type: TypeIdentifier) -> TypeDeclaration? {
        if let declaration = byIdentifier[type] { return declaration }
        guard let mime = type.dynamicMIMEType else { return nil }
        let parents: [TypeIdentifier]
        if let database = mimeDatabase {
            parents = dynamicParents(of: type, in: database)
        } else {
            parents = [Self.isTextMIMEType(mime) ? .text : .data]
        }
        return TypeDeclaration(
            identifier: type, conformsTo: parents, mimeTypes: [mime],
            description: "Dynamic type for MIME type \(mime)")
    }

    /// Whether a dynamic type's MIME type is textual (`text/*`).
    static func isTextMIMEType(_ mime: String) -> Bool {
        mime.hasPrefix("text/")
    }

    // MARK: - Construction

    /// Builds all indices from declarations that were already validated.
    init(ordered: [TypeDeclaration], sources: [TypeIdentifier: String], sharedMIMEInfo: LazySharedMIMEInfo?) {
        self.ordered = ordered
        self.sources = sources
        self.sharedMIMEInfo = sharedMIMEInfo
        byIdentifier.reserveCapacity(ordered.count)
        supertypeLists.reserveCapacity(ordered.count)
        supertypeSets.reserveCapacity(ordered.count)
        mimeIndex.reserveCapacity(ordered.count * 2)
        extensionIndex.reserveCapacity(ordered.count * 2)
        for declaration in ordered {
            byIdentifier[declaration.identifier] = declaration
        }
        sorted = ordered.sorted { $0.identifier < $1.identifier }
        let declared = byIdentifier
        for declaration in ordered {
            let list = Self.breadthFirstSupertypes(of: declaration.identifier) { declared[$0]?.conformsTo ?? [] }
            supertypeLists[declaration.identifier] = list
            supertypeSets[declaration.identifier] = Set(list)
            for mime in declaration.mimeTypes {
                let key = MIMEType.normalized(mime)
                if mimeIndex[key] == nil { mimeIndex[key] = declaration.identifier }
            }
            for ext in declaration.filenameExtensions {
                let key = ext.lowercased()
                if extensionIndex[key] == nil { extensionIndex[key] = declaration.identifier }
            }
        }
        magicTable = MagicTable(ordered)

        let dataChain = byIdentifier[.data] == nil ? [] : [TypeIdentifier.data] + (supertypeLists[.data] ?? [])
        let textChain = byIdentifier[.text] == nil ? [] : [TypeIdentifier.text] + (supertypeLists[.text] ?? [])
        dynamicDataSupertypes = dataChain
        var seen = Set<TypeIdentifier>()
        dynamicTextSupertypes = (textChain + dataChain).filter { seen.insert($0).inserted }
        dynamicDataSupertypeSet = Set(dynamicDataSupertypes)
        dynamicTextSupertypeSet = Set(dynamicTextSupertypes)
    }

    /// Supertypes of `type` given each type's direct `parents`: its parents in order, then
    /// grandparents, without duplicates and without `type` itself (cycles are harmless).
    static func breadthFirstSupertypes(
        of type: TypeIdentifier, parents: (TypeIdentifier) -> [TypeIdentifier]
    ) -> [TypeIdentifier] {
        var result: [TypeIdentifier] = []
        var seen: Set<TypeIdentifier> = [type]
        var queue = parents(type)
        var head = 0
        while head < queue.count {
            let next = queue[head]
            head += 1
            guard seen.insert(next).inserted else { continue }
            result.append(next)
            queue.append(contentsOf: parents(next))
        }
        return result
    }

    /// Adds validated-on-the-way `entries` (with their index in the source's `types` array).
    ///
    /// `rejected` names types that were rejected earlier (e.g. in an earlier file or while parsing),
    /// so that children can say their parent was rejected. Returns those rejected now too.
    func adding(
        entries: [(index: Int, declaration: TypeDeclaration)], source: String, rejected: Set<TypeIdentifier>
    ) -> (registry: TypeRegistry, errors: [TypeDeclarationError], rejected: Set<TypeIdentifier>) {
        var batch = DeclarationBatch(self, rejected: rejected)
        let errors = batch.add(entries, source: source)
        return (batch.registry, errors, batch.rejected)
    }

    /// The members of every non-trivial strongly connected component (Tarjan), keyed by member.
    static func typesInCycles(
        _ graph: [(TypeIdentifier, [TypeIdentifier])]
    ) -> [TypeIdentifier: Set<TypeIdentifier>] {
        let edges = Dictionary(graph, uniquingKeysWith: { first, _ in first })
        var index = 0
        var indices: [TypeIdentifier: Int] = [:]
        var lowlinks: [TypeIdentifier: Int] = [:]
        var stack: [TypeIdentifier] = []
        var onStack: Set<TypeIdentifier> = []
        var result: [TypeIdentifier: Set<TypeIdentifier>] = [:]

        func connect(_ node: TypeIdentifier) {
            indices[node] = index
            lowlinks[node] = index
            index += 1
            stack.append(node)
            onStack.insert(node)
            for next in edges[node] ?? [] {
                if indices[next] == nil {
                    connect(next)
                    lowlinks[node] = min(lowlinks[node]!, lowlinks[next]!)
                } else if onStack.contains(next) {
                    lowlinks[node] = min(lowlinks[node]!, indices[next]!)
                }
            }
            if lowlinks[node] == indices[node] {
                var component: Set<TypeIdentifier> = []
                while let member = stack.popLast() {
                    onStack.remove(member)
                    component.insert(member)
                    if member == node { break }
                }
                if component.count > 1 {
                    for member in component { result[member] = component }
                }
            }
        }
        for (node, _) in graph where indices[node] == nil {
            connect(node)
        }
        return result
    }
}

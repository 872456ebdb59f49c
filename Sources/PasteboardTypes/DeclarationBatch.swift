#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Declarations added to a registry one source after another (the files of `types.d` in
/// order), each validated against the base and the sources before it, with the indices built
/// once at the end (`registry`).
///
/// Why a batch: building a registry's indices costs time in proportion to all its declarations,
/// so building them after each of N one-type files made loading `types.d` O(N²) (5,000 files
/// took 60 s); validating against the declarations so far and building once is O(N log N).
struct DeclarationBatch {
    private let base: TypeRegistry
    private var added: [TypeDeclaration] = []
    private var addedSources: [TypeIdentifier: String] = [:]
    private var addedApps: [String: String] = [:]
    /// Types rejected so far (by parsing or validation), so children can say their parent was rejected.
    var rejected: Set<TypeIdentifier>

    init(_ base: TypeRegistry, rejected: Set<TypeIdentifier> = []) {
        self.base = base
        self.rejected = rejected
    }

    /// The base with every accepted declaration, in the order added.
    var registry: TypeRegistry {
        guard !added.isEmpty else { return base }
        var registry = TypeRegistry(
            ordered: base.ordered + added, sources: base.sources.merging(addedSources) { _, new in new }, sharedMIMEInfo: base.sharedMIMEInfo)
        registry.fileApps = base.fileApps.merging(addedApps) { _, new in new }
        return registry
    }

    private func source(of id: TypeIdentifier) -> String? { base.sources[id] ?? addedSources[id] }

    private func isDeclared(_ id: TypeIdentifier) -> Bool { base.byIdentifier[id] != nil || addedSources[id] != nil }

    /// Adds `entries` of `source` (with their index in the source's `types` array), validated
    /// against the base and everything added before them; returns the problems, in field order.
    mutating func add(_ entries: [(index: Int, declaration: TypeDeclaration)], source: String) -> [TypeDeclarationError] {
        var errors: [(position: Int, error: TypeDeclarationError)] = []
        func report(_ position: Int, _ field: String, _ message: String) {
            errors.append((position, TypeDeclarationError(file: source, field: field, message: message)))
        }
        var seen: [TypeIdentifier: Int] = [:]  // identifier -> index in the source's types array
        var candidates: [TypeIdentifier: (position: Int, declaration: TypeDeclaration)] = [:]
        var candidateOrder: [TypeIdentifier] = []

        for (position, entry) in entries.enumerated() {
            var declaration = entry.declaration
            let id = declaration.identifier
            let path = "types[\(entry.index)]"
            if let declaredBy = self.source(of: id) {
                let origin = " by \(declaredBy)"
                report(position, "\(path).identifier", "type '\(id)' is already declared\(origin)")
                continue
            }
            if let first = seen[id] {
                report(position, "\(path).identifier", "type '\(id)' is declared twice (first at types[\(first)])")
                continue
            }
            seen[id] = entry.index
            let problems = declaration.semanticProblems(path: path)
            if !problems.isEmpty {
                for problem in problems { report(position, problem.field, problem.message) }
                rejected.insert(id)
                continue
            }
            var unique = Set<TypeIdentifier>()
            declaration.conformsTo = declaration.conformsTo.filter { unique.insert($0).inserted }
            candidates[id] = (position, declaration)
            candidateOrder.append(id)
        }

        // Cycles among the new declarations (parents already in the registry cannot form one).
        let inCycle = TypeRegistry.typesInCycles(candidateOrder.map { id in
            (id, candidates[id]!.declaration.conformsTo.filter { candidates[$0] != nil })
        })
        for id in candidateOrder where inCycle[id] != nil {
            let (position, declaration) = candidates[id]!
            let component = inCycle[id]!
            let index = declaration.conformsTo.firstIndex { component.contains($0) } ?? 0
            let members = component.sorted().map { "'\($0)'" }.joined(separator: ", ")
            report(position, "types[\(entries[position].index)].conformsTo[\(index)]",
                   "conformance cycle among \(members)")
        }

        // Parents must be declared already, or accepted in this batch.
        var accepted: [TypeIdentifier: Bool] = [:]
        func check(_ id: TypeIdentifier) -> Bool {
            if let known = accepted[id] { return known }
            if inCycle[id] != nil {
                accepted[id] = false
                return false
            }
            let (position, declaration) = candidates[id]!
            let path = "types[\(entries[position].index)]"
            var ok = true
            for (index, parent) in declaration.conformsTo.enumerated() {
                if isDeclared(parent) { continue }
                if candidates[parent] != nil {
                    if check(parent) { continue }
                    report(position, "\(path).conformsTo[\(index)]", "parent type '\(parent)' was rejected")
                } else if rejected.contains(parent) {
                    report(position, "\(path).conformsTo[\(index)]", "parent type '\(parent)' was rejected")
                } else {
                    report(position, "\(path).conformsTo[\(index)]", "unknown parent type '\(parent)'")
                }
                ok = false
                break
            }
            accepted[id] = ok
            return ok
        }
        for id in candidateOrder {
            if check(id) {
                added.append(candidates[id]!.declaration)
                addedSources[id] = source
            } else {
                rejected.insert(id)
            }
        }

        let ordered = errors.enumerated().sorted {
            $0.element.position != $1.element.position
                ? $0.element.position < $1.element.position : $0.offset < $1.offset
        }.map(\.element.error)
        return ordered
    }


    /// Parses a declaration file and adds what is valid; returns its parse and validation
    /// problems in field order.
    mutating func addDeclarationFile(_ data: Data, source: String) -> [TypeDeclarationError] {
        let parsed = DeclarationParser.file(data)
        let parseErrors = parsed.problems.map { TypeDeclarationError(file: source, field: $0.field, message: $0.message) }
        rejected.formUnion(parsed.rejected)
        if let app = parsed.app { addedApps[source] = app }
        return TypeRegistry.inFieldOrder(parseErrors + add(parsed.entries, source: source))
    }
}

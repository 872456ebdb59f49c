/// Replacing declarations while keeping the registry consistent.
extension TypeRegistry {
    /// One declaration for ``replacing(_:)``: the declaration, where it comes from, and its index
    /// in its source's list of declarations (errors name the field `types[<index>]…`).
    package struct Replacement: Sendable, Equatable {
        package var declaration: TypeDeclaration
        package var source: String
        package var index: Int

        package init(_ declaration: TypeDeclaration, source: String, index: Int) {
            self.declaration = declaration
            self.source = source
            self.index = index
        }
    }

    /// Returns a registry in which each of `replacements` takes the place of the declaration of
    /// its identifier (keeping that declaration's place in the order, and so its precedence in
    /// tag clashes), or, for an identifier not declared yet, is added at the end in the order
    /// given; with the errors that made it skip others, each with its position in `replacements`.
    ///
    /// A replacement is checked as ``adding(_:source:)`` checks a declaration (identifier and tag
    /// syntax, an identifier given twice, parents that must be declared), except that its
    /// identifier may be declared already. The result stays consistent as a whole: a
    /// replacement that would close a conformance cycle, through declarations that conform to
    /// the type it replaces, is skipped and the old declaration stays; so is one whose parent
    /// was skipped. Which identifiers a source may replace is the caller's rule.
    ///
    /// O(n + e) per round over the whole registry (n declarations, e parent links); a round
    /// runs again only when the one before skipped something.
    package func replacing(_ replacements: [Replacement]) -> (registry: TypeRegistry, errors: [(position: Int, error: TypeDeclarationError)]) {
        var errors: [(position: Int, error: TypeDeclarationError)] = []
        func report(_ position: Int, _ field: String, _ message: String) {
            errors.append((position, TypeDeclarationError(file: replacements[position].source, field: field, message: message)))
        }
        var candidates: [TypeIdentifier: Int] = [:]  // identifier -> position in `replacements`
        var cleaned: [Int: TypeDeclaration] = [:]  // position -> declaration without repeated parents
        var order: [Int] = []
        var firstIndex: [TypeIdentifier: Int] = [:]
        for (position, replacement) in replacements.enumerated() {
            let path = "types[\(replacement.index)]"
            let id = replacement.declaration.identifier
            if let first = firstIndex[id] {
                report(position, "\(path).identifier", "type '\(id)' is declared twice (first at types[\(first)])")
                continue
            }
            firstIndex[id] = replacement.index
            let problems = replacement.declaration.semanticProblems(path: path)
            guard problems.isEmpty else {
                for problem in problems { report(position, problem.field, problem.message) }
                continue
            }
            var declaration = replacement.declaration
            var unique = Set<TypeIdentifier>()
            declaration.conformsTo = declaration.conformsTo.filter { unique.insert($0).inserted }
            candidates[id] = position
            cleaned[position] = declaration
            order.append(position)
        }

        var accepted = Set(order)
        func current(_ id: TypeIdentifier) -> TypeDeclaration? {
            if let position = candidates[id], accepted.contains(position) { return cleaned[position] }
            return byIdentifier[id]
        }
        while true {
            var skipped: [Int] = []
            // Parents: the old declarations' parents are all declared (and none is removed here),
            // so only the replacements' are looked at.
            for position in order where accepted.contains(position) {
                let declaration = cleaned[position]!
                for (index, parent) in declaration.conformsTo.enumerated() where current(parent) == nil {
                    let message = candidates[parent] != nil ? "parent type '\(parent)' was rejected" : "unknown parent type '\(parent)'"
                    report(position, "types[\(replacements[position].index)].conformsTo[\(index)]", message)
                    skipped.append(position)
                    break
                }
            }
            if skipped.isEmpty {
                // Cycles: the old graph had none, so each one found runs through a replacement.
                var graph = ordered.map { ($0.identifier, current($0.identifier)?.conformsTo ?? []) }
                for position in order where accepted.contains(position) && byIdentifier[cleaned[position]!.identifier] == nil {
                    graph.append((cleaned[position]!.identifier, cleaned[position]!.conformsTo))
                }
                let inCycle = Self.typesInCycles(graph)
                for position in order where accepted.contains(position) {
                    let declaration = cleaned[position]!
                    guard let component = inCycle[declaration.identifier] else { continue }
                    let index = declaration.conformsTo.firstIndex { component.contains($0) } ?? 0
                    let members = component.sorted().map { "'\($0)'" }.joined(separator: ", ")
                    let broken = component.sorted().filter { candidates[$0] == nil }.map { "'\($0)' (declared by \(sources[$0] ?? "?"))" }
                    report(position, "types[\(replacements[position].index)].conformsTo[\(index)]",
                           "conformance cycle among \(members)" + (broken.isEmpty ? "" : ", which would break \(broken.joined(separator: ", "))"))
                    skipped.append(position)
                }
            }
            if skipped.isEmpty { break }
            accepted.subtract(skipped)
        }

        let sortedErrors = errors.enumerated().sorted {
            $0.element.position != $1.element.position ? $0.element.position < $1.element.position : $0.offset < $1.offset
        }.map(\.element)
        guard !accepted.isEmpty else { return (self, sortedErrors) }
        var newOrdered = ordered.map { current($0.identifier) ?? $0 }
        var newSources = sources
        for position in order where accepted.contains(position) {
            let declaration = cleaned[position]!
            if byIdentifier[declaration.identifier] == nil { newOrdered.append(declaration) }
            newSources[declaration.identifier] = replacements[position].source
        }
        var registry = TypeRegistry(ordered: newOrdered, sources: newSources, sharedMIMEInfo: sharedMIMEInfo)
        registry.fileApps = fileApps
        return (registry, sortedErrors)
    }
}

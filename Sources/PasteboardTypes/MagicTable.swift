/// The magic patterns of a set of declarations, in the order sniffing tries them: longest
/// first, then in declaration order (so an earlier declaration wins a tie).
struct MagicTable: Sendable {
    /// A pattern and the type it identifies.
    struct Entry: Sendable {
        var type: TypeIdentifier
        var pattern: MagicPattern
    }

    /// The entries, in matching order.
    let entries: [Entry]

    /// The table of `declarations`' patterns; they are taken as given (validated elsewhere).
    init(_ declarations: [TypeDeclaration]) {
        var table: [(order: Int, entry: Entry)] = []
        for declaration in declarations {
            for pattern in declaration.magic {
                table.append((table.count, Entry(type: declaration.identifier, pattern: pattern)))
            }
        }
        entries = table.sorted {
            $0.entry.pattern.bytes.count != $1.entry.pattern.bytes.count
                ? $0.entry.pattern.bytes.count > $1.entry.pattern.bytes.count
                : $0.order < $1.order
        }.map(\.entry)
    }

    /// The built-in declarations' table, without building the built-in registry.
    static let builtIn = MagicTable(BuiltInTypes.declarations)

    /// The type of the first pattern found in `prefix`, if any.
    func type(matching prefix: UnsafeBufferPointer<UInt8>) -> TypeIdentifier? {
        entries.first { $0.pattern.matches(prefix) }?.type
    }
}

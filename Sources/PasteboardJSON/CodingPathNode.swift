/// A coding path as a chain of keys from the innermost outwards, so that descending into a
/// value costs one small node instead of copying an array of keys. The array is built only
/// when asked for (in practice, for an error message).
///
/// Unchecked: `any CodingKey` is not `Sendable`, so the compiler cannot prove the class is. It
/// is: both properties are `let`, set once in `init`, and a node lives only while one value is
/// encoded or decoded on one thread; nothing mutates a node or a key after it is made.
final class CodingPathNode: @unchecked Sendable {
    let parent: CodingPathNode?
    let key: any CodingKey

    init(parent: CodingPathNode?, key: any CodingKey) {
        self.parent = parent
        self.key = key
    }

    /// The keys from the root to this node.
    static func keys(of node: CodingPathNode?, then last: (any CodingKey)? = nil) -> [any CodingKey] {
        var keys: [any CodingKey] = []
        if let last { keys.append(last) }
        var current = node
        while let next = current {
            keys.append(next.key)
            current = next.parent
        }
        return keys.reversed()
    }
}

/// An array index as a coding key.
struct IndexCodingKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "\(intValue ?? 0)" }

    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}

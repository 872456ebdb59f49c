import PasteboardTypes

/// A type that can be put on and read from a pasteboard, modelled on CoreTransferable.
///
/// A conforming type lists its ``TransferRepresentation``s best first. Export goes through
/// ``exportedRepresentations()``, import through ``importing(_:contentType:registry:)``.
///
/// ```swift
/// struct Note: Codable, Transferable {
///     var text: String
///     static var transferRepresentations: [TransferRepresentation<Note>] {
///         [.codable(contentType: "com.example.note"), .proxy(exporting: { $0.text })]
///     }
/// }
/// ```
public protocol Transferable: Sendable {
    /// The ways to convert values of this type, best first.
    static var transferRepresentations: [TransferRepresentation<Self>] { get }
}

extension Transferable {
    /// All representations flattened, proxies expanded, in order.
    static var transferLeaves: [TransferRepresentation<Self>.Leaf] {
        transferRepresentations.flatMap(\.leaves)
    }
}

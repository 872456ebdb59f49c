package import PasteboardProtocol
import PasteboardTypes

/// The client side of reading the daemon's type declarations, without I/O: `types` answers,
/// each a page of `type-list`, put together into the whole list, in the daemon's order, and read
/// again from the start when the declarations changed in between (another `generation`). Both
/// connections drive it (the blocking one for `pb types`, the async one for `typeRegistries()`).
package struct TypeListReading {
    /// One type declaration the daemon holds, and where it came from.
    package struct Declaration: Sendable, Equatable {
        /// The declaration.
        package var declaration: TypeDeclaration
        /// Where it came from, for people: `built-in`, the declaration file's path, or `declared by APP`.
        package var origin: String
        /// The declaration did not fit in a frame alone and came without its description and magic.
        package var isAbridged: Bool
    }

    /// How many times the list is read again from the start when the daemon's declarations
    /// change while it is read in several answers.
    package static let attempts = 3

    /// The most declarations taken from a daemon: far beyond any real registry, it bounds what a
    /// daemon that says `more` without end makes this process hold.
    package static let maximumDeclarations = 100_000

    private var declarations: [Declaration] = []
    private var generation: Int?
    private var restarts = 0

    package init() {}

    /// The `types` request to send next.
    package var nextRequest: Message {
        .types(TypesRequest(start: declarations.isEmpty ? nil : declarations.count))
    }

    /// Takes the answer to `nextRequest`; returns the whole list once its last page came (with
    /// the generation it is of), nil when another request must be sent. Throws for an answer
    /// of another kind, a list without end, or declarations that kept changing.
    package mutating func take(_ answer: Message) throws -> (declarations: [Declaration], generation: Int)? {
        let page: TypeList
        switch answer {
        case .typeList(let list): page = list
        case .error(let error): throw PasteboardError.daemon(error)
        default: throw PasteboardConnection.unexpected(answer)
        }
        if let generation, page.generation != generation {
            restarts += 1
            guard restarts < Self.attempts else {
                throw PasteboardError.io("pasteboardd's type declarations changed \(Self.attempts) times while they were read; try again")
            }
            declarations = []
            self.generation = nil
            return nil
        }
        generation = page.generation
        declarations += page.types.map { Declaration(declaration: $0.declaration, origin: $0.origin, isAbridged: $0.abridged == true) }
        guard page.more == true else { return (declarations, page.generation) }
        guard !page.types.isEmpty else {
            throw PasteboardError.daemon(ProtocolError(.malformedMessage, "a type-list says more but lists no declaration"))
        }
        guard declarations.count <= Self.maximumDeclarations else {
            throw PasteboardError.io("pasteboardd lists more than \(Self.maximumDeclarations) type declarations")
        }
        return nil
    }
}

internal import PasteboardProtocol
import PasteboardTypes

extension BlockingConnection {
    /// One type declaration the daemon holds, and where it came from.
    package struct DaemonTypeDeclaration: Sendable, Equatable {
        /// The declaration.
        package var declaration: TypeDeclaration
        /// Where it came from, for people: `built-in`, the declaration file's path, or `declared by APP`.
        package var origin: String
        /// The declaration did not fit in a frame alone and came without its description and magic.
        package var isAbridged: Bool
    }

    /// How many times the list is read again from the start when the daemon's declarations
    /// change while it is read in several answers.
    static let typeListAttempts = 3

    /// The most declarations taken from a daemon: far beyond any real registry, it bounds what a
    /// daemon that says `more` without end makes this process hold.
    static let maximumTypeDeclarations = 100_000

    /// Every type declaration the daemon holds, in its order (built-in, the user's `types.d` as
    /// the daemon last read it, then the apps' declarations), read with `types` as many answers
    /// as it takes.
    ///
    /// Adding the declarations to a registry in this order gives the daemon's view (see
    /// pasteboard-protocol(7), TYPE DECLARATIONS). Throws `PasteboardError.daemon` with code
    /// `unknown-message` from a daemon that predates `types`, and `PasteboardError.io` when the
    /// declarations kept changing while they were read, or the daemon listed more than
    /// ``maximumTypeDeclarations``.
    package func typeDeclarations() throws -> [DaemonTypeDeclaration] {
        attempts: for _ in 0..<Self.typeListAttempts {
            var declarations: [DaemonTypeDeclaration] = []
            var first: TypeList?
            while true {
                let page = try typeList(from: declarations.count)
                if let first, page.generation != first.generation { continue attempts }
                if first == nil { first = page }
                declarations += page.types.map {
                    DaemonTypeDeclaration(declaration: $0.declaration, origin: $0.origin, isAbridged: $0.abridged == true)
                }
                guard page.more == true else { return declarations }
                guard !page.types.isEmpty else {
                    throw PasteboardError.daemon(ProtocolError(.malformedMessage, "a type-list says more but lists no declaration"))
                }
                guard declarations.count <= Self.maximumTypeDeclarations else {
                    throw PasteboardError.io("pasteboardd lists more than \(Self.maximumTypeDeclarations) type declarations")
                }
            }
        }
        throw PasteboardError.io("pasteboardd's type declarations changed \(Self.typeListAttempts) times while they were read; try again")
    }

    /// One `type-list` answer, from declaration `start` on.
    private func typeList(from start: Int) throws -> TypeList {
        let id = openRequest()
        queue(.message(.types(TypesRequest(start: start == 0 ? nil : start)), requestID: id))
        try flush()
        while true {
            let frame = try nextFrame(for: id, interrupt: nil)
            guard frame.kind == .message else { continue }
            let message: Message
            do { message = try frame.decodeMessage() } catch { throw PasteboardError.daemon(error) }
            switch message {
            case .typeList(let list): return list
            case .error(let error): throw PasteboardError.daemon(error)
            default: throw PasteboardConnection.unexpected(message)
            }
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
internal import PasteboardProtocol
import PasteboardSystem
import Synchronization

/// A representation loaded into a file. A temporary copy is deleted when this object goes away
/// unless the caller moved it (`move(to:)`, or a rename of its own); a file opened in place is
/// the source's own file and is never deleted.
public final class LoadedFile: Sendable {
    /// The representation the daemon chose.
    public let representation: LoadedRepresentation
    /// True when `path` is the source's own file (opened in place), not a copy.
    public let isOriginal: Bool
    private let state: Mutex<(path: String, kept: Bool)>

    init(path: String, header: RepresentationHeader, isOriginal: Bool) {
        self.representation = LoadedRepresentation(header)
        self.isOriginal = isOriginal
        self.state = Mutex((path, isOriginal))
    }

    /// Where the file is now.
    public var path: String { state.withLock { $0.path } }

    /// Moves the file to `destination` (a rename: same file system) and keeps it there.
    public func move(to destination: String) throws {
        try state.withLock { state in
            guard rename(state.path, destination) == 0 else {
                throw PasteboardError.io("cannot move \(state.path) to \(destination): \(SystemError.current)")
            }
            state = (destination, true)
        }
    }

    /// Keeps the file where it is.
    public func keep() {
        state.withLock { $0.kept = true }
    }

    deinit {
        let (path, kept) = state.withLock { $0 }
        if !kept { unlink(path) }
    }
}

import Synchronization

/// A shared-mime-info database read from its directories on first use, then kept.
///
/// Registries hold one of these rather than the data itself so that building a registry costs
/// no I/O: `pb` builds one on every run, mostly for commands (`pb paste -t text`) that never
/// meet an undeclared MIME type. Resolving an undeclared MIME type reads the `aliases` files
/// only (``aliases``); relating one to other types reads the `subclasses` files too (``value``).
/// Copies of a registry, and registries derived from it with ``TypeRegistry/adding(_:source:)``,
/// share what was read.
final class LazySharedMIMEInfo: Sendable {
    /// What has been read so far.
    private enum State {
        case unread
        case aliases(SharedMIMEInfo)
        case complete(SharedMIMEInfo)
    }

    /// The `mime` directories to read, most important first.
    private let directories: [String]
    /// What has been read so far.
    private let state: Mutex<State>

    /// A database to be read from `directories` when first needed.
    init(directories: [String]) {
        self.directories = directories
        self.state = Mutex(.unread)
    }

    /// A database that is already in memory.
    init(_ info: SharedMIMEInfo) {
        self.directories = []
        self.state = Mutex(.complete(info))
    }

    /// The database's aliases (and its subclasses, if they were read already), reading the
    /// `aliases` files now if this is the first use.
    var aliases: SharedMIMEInfo {
        state.withLock { state in
            switch state {
            case .aliases(let info), .complete(let info): return info
            case .unread:
                let info = SharedMIMEInfo.reading(.aliases, in: directories)
                state = .aliases(info)
                return info
            }
        }
    }

    /// The whole database, reading whatever was not read yet (once, even with concurrent callers).
    var value: SharedMIMEInfo {
        state.withLock { state in
            switch state {
            case .complete(let info): return info
            case .aliases(let aliases):
                let info = aliases.merging(SharedMIMEInfo.reading(.subclasses, in: directories))
                state = .complete(info)
                return info
            case .unread:
                let info = SharedMIMEInfo(contentsOf: directories)
                state = .complete(info)
                return info
            }
        }
    }
}

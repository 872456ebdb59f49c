public import Pasteboard
public import PasteboardDesktopTypes
import PasteboardTypes
import Synchronization

/// The type mapping the bridge's lanes share, following the daemon's registry as it changes:
/// the types apps declare when they connect, their upgrades, and reloads of `types.d` (the
/// daemon's, which the bridge's own process never reads again). Importers map a desktop
/// application's MIME types through `current` at each offer; exporters hear `changes()` and
/// offer what they own again under the new names.
///
/// Why shared and followed: a lane given a mapping once, at start, offered only
/// `application/octet-stream` for a type an app declared with a MIME type of its own, and kept
/// an upgraded app's old MIME type until the bridge restarted.
public final class FollowedTypeMapping: Sendable {
    private struct State {
        var mapping: DesktopTypeMapping
        var nextListener = 0
        var listeners: [Int: AsyncStream<Void>.Continuation] = [:]
    }

    private let state: Mutex<State>

    /// A mapping that starts as `initial` (the built-in types and this process's `types.d`)
    /// until `follow(on:)` brings the daemon's.
    public init(_ initial: DesktopTypeMapping) {
        state = Mutex(State(mapping: initial))
    }

    /// The mapping as it is now.
    public var current: DesktopTypeMapping { state.withLock { $0.mapping } }

    /// A signal each time the mapping changed from now on (the latest one only, if not read).
    public func changes() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let id = state.withLock { state in
            defer { state.nextListener += 1 }
            state.listeners[state.nextListener] = continuation
            return state.nextListener
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.listeners.removeValue(forKey: id) }
        }
        return stream
    }

    /// Puts `mapping` in place and tells the listeners, when it maps differently from the last.
    func replace(with registry: TypeRegistry) {
        let listeners = state.withLock { state -> [AsyncStream<Void>.Continuation] in
            guard state.mapping.registry.declarationsInOrder != registry.declarationsInOrder else { return [] }
            state.mapping = DesktopTypeMapping(registry: registry)
            return Array(state.listeners.values)
        }
        for listener in listeners { listener.yield() }
    }

    /// Follows the daemon's registry on `connection` until the task is cancelled or the
    /// connection ends (throws as `typeRegistries()` does). A daemon that cannot be followed
    /// (older than `watch-types`) leaves the mapping as it is: `log` hears it once, and this
    /// returns only when cancelled, so the bridge's other lanes go on.
    public func follow(on connection: PasteboardConnection, log: @Sendable (String) -> Void) async throws {
        do {
            for try await registry in connection.typeRegistries() { replace(with: registry) }
        } catch let error as PasteboardError where error.code == .unknownMessage {
            log("pasteboardd cannot tell of its type declarations' changes (\(error)): the bridge maps types as it read them at start")
            while !Task.isCancelled { try await Task.sleep(for: .seconds(3600)) }
        }
    }
}

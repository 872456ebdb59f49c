/// The streams observing one source of events (selection changes, a data source's events),
/// kept in the owner's locked state.
///
/// Observers are yielded to and finished outside that lock, always: a yield resumes the
/// observing task (taking its status lock), while cancelling that task holds its status lock
/// and takes the owner's lock through the stream's `onTermination`, the inversion that
/// deadlocked the bridge (gdb stacks, CI). So `members` and `removeAll()` hand the
/// continuations out for the caller to use once the lock is released.
struct ObserverList<Element: Sendable>: Sendable {
    typealias Observer = AsyncStream<Element>.Continuation

    private var observers: [UInt64: Observer] = [:]
    private var nextID: UInt64 = 0

    /// Adds `observer`; returns the id it leaves by.
    mutating func add(_ observer: Observer) -> UInt64 {
        defer { nextID += 1 }
        observers[nextID] = observer
        return nextID
    }

    /// Takes out the observer that got `id`.
    mutating func remove(_ id: UInt64) {
        observers.removeValue(forKey: id)
    }

    /// Every observer, to yield to outside the lock.
    var members: [Observer] {
        Array(observers.values)
    }

    /// Empties the list; returns the observers, to finish outside the lock.
    mutating func removeAll() -> [Observer] {
        defer { observers = [:] }
        return members
    }

    /// Completes `observer`'s registration, which got `id` under the owner's lock, or nil when
    /// the owner had already ended (the stream then finishes at once): once its consumer ends
    /// the stream, `leave` takes it out of the list (under the lock, which `finish()` outside
    /// it lets `leave` take).
    static func track(_ observer: Observer, id: UInt64?, leave: @escaping @Sendable (UInt64) -> Void) {
        guard let id else { return observer.finish() }
        observer.onTermination = { _ in leave(id) }
    }
}

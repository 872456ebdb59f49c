#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Runs blocking X11 code on a thread of its own: the X11 connection waits with poll and
/// blocks its thread, which must not be one of Swift concurrency's few cooperative threads.
package enum DetachedThread {
    private final class Box {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    /// Starts `body` on a new detached thread; runs it inline when no thread can be created
    /// (so the work still happens, blocking the caller).
    package static func run(_ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        var thread = pthread_t()
        let created = pthread_create(&thread, nil, { argument in
            Unmanaged<Box>.fromOpaque(argument!).takeRetainedValue().body()
            return nil
        }, box)
        if created == 0 {
            pthread_detach(thread)
        } else {
            Unmanaged<Box>.fromOpaque(box).takeRetainedValue().body()
        }
    }
}

extension DetachedThread {
    /// The result of blocking `body`, run on a thread of its own while the caller awaits it.
    package static func value<Value: Sendable, Failure: Error>(_ body: @escaping @Sendable () throws(Failure) -> Value) async throws(Failure) -> Value {
        let result: Result<Value, Failure> = await withCheckedContinuation { continuation in
            run { continuation.resume(returning: Result { () throws(Failure) in try body() }) }
        }
        return try result.get()
    }
}

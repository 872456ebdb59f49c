public import Foundation

/// Polls `condition` (every 10 ms) until it holds, or `timeout` seconds pass; whether it held.
/// For waiting on an event the test cannot be told of directly (another process's state, a file
/// appearing): never a fixed sleep.
public func eventually(timeout: TimeInterval = 10, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if condition() { return true }
        usleep(10_000)
    }
    return condition()
}

/// `eventually` for async code (its own name: in async code an async overload would be chosen over
/// the blocking one everywhere): sleeps between polls instead of blocking its thread.
public func asyncEventually(timeout: TimeInterval = 10, _ condition: () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return condition()
}

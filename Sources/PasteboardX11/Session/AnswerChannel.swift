import Dispatch
import Synchronization

/// A blocking thread asks an async task one question at a time and waits for the answer, for a
/// bounded time: how the clipboard manager's X thread, which must not answer an exiting
/// application before its data is kept, has the pasteboard write done by the async side.
///
/// Closing (the task ends) answers a waiting question with nil and every later one at once, so
/// the thread never waits on a task that is gone.
final class AnswerChannel<Question: Sendable, Answer: Sendable>: Sendable {
    private struct State {
        var pending: Answer??
        var closed = false
    }

    private let state = Mutex(State())
    private let answered = DispatchSemaphore(value: 0)
    /// The questions, for the async side to answer one by one.
    let questions: AsyncStream<Question>
    private let sink: AsyncStream<Question>.Continuation

    init() {
        (questions, sink) = AsyncStream.makeStream(of: Question.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// The thread: asks `question` and waits up to `timeout` for the answer; nil when the
    /// channel closed or the time passed.
    func ask(_ question: Question, timeout: Duration) -> Answer? {
        let open = state.withLock { state -> Bool in
            guard !state.closed else { return false }
            state.pending = .some(nil)
            return true
        }
        guard open else { return nil }
        sink.yield(question)
        let (seconds, attoseconds) = timeout.components
        let nanoseconds = max(0, min(seconds, 86_400)) * 1_000_000_000 + attoseconds / 1_000_000_000
        let timedOut = answered.wait(timeout: .now() + .nanoseconds(Int(nanoseconds))) == .timedOut
        let (answer, signalled) = state.withLock { state -> (Answer?, Bool) in
            defer { state.pending = nil }
            let answer = state.pending ?? nil
            // Answered (or closed) between the timeout and this lock: its signal is still owed.
            return (answer, answer != nil || state.closed)
        }
        if timedOut, signalled { answered.wait() }
        return answer
    }

    /// The async side: the answer to the question asked last (ignored once its asker stopped waiting).
    func answer(_ answer: Answer) {
        let waiting = state.withLock { state -> Bool in
            guard case .some(.none) = state.pending else { return false }
            state.pending = .some(answer)
            return true
        }
        if waiting { answered.signal() }
    }

    /// No more answers: a waiting question gets nil at once, and so does every later one.
    func close() {
        let waiting = state.withLock { state -> Bool in
            state.closed = true
            guard case .some(.none) = state.pending else { return false }
            return true
        }
        sink.finish()
        if waiting { answered.signal() }
    }
}

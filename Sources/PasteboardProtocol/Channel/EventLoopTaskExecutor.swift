public import NIOCore

/// Runs a task's jobs on one SwiftNIO event loop: the loop its connection's channel lives on.
///
/// A connection's frames arrive on its channel's event loop. Served by a task on Swift's global
/// executor, every frame in and every frame out crosses between that loop's thread and a worker
/// thread, each crossing a thread wake-up; preferring this executor for the connection's tasks
/// (`TaskGroup.addTask(executorPreference:)`, `Task(executorPreference:)`) keeps a request's
/// whole round trip on one thread. Default actors the tasks call, such as the store, run their
/// jobs on the calling task's preferred executor too (SE-0417).
///
/// Nothing may block in such a task for long, since the loop's other channels wait meanwhile.
public final class EventLoopTaskExecutor: TaskExecutor {
    /// The loop the jobs run on.
    public let eventLoop: any EventLoop

    /// An executor for `eventLoop`'s thread.
    public init(_ eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        eventLoop.execute {
            job.runSynchronously(on: self.asUnownedTaskExecutor())
        }
    }
}

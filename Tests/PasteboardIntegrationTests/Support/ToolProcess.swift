import Foundation
import Glibc
import XCTest

/// A `pb` (or another tool: one of ours by name, or an absolute path) running in the
/// background: a lazy source serving loads, or a destination the test stops, interrupts or
/// kills mid-transfer. Its stderr is read line by line.
final class ToolProcess {
    let process = Process()
    let stdoutPath: String
    private let stderrPipe = Pipe()
    private let lines = LineBuffer()

    init(_ tool: String, _ arguments: [String], environment: [String: String], in sandbox: Sandbox) throws {
        stdoutPath = sandbox.path("bg-stdout-\(UUID().uuidString.prefix(8))")
        _ = FileManager.default.createFile(atPath: stdoutPath, contents: nil)
        process.executableURL = Binaries.url(tool)
        process.arguments = arguments
        process.environment = environment
        process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        process.standardOutput = FileHandle(forWritingAtPath: stdoutPath)
        process.standardError = stderrPipe
        let exited = exited
        process.terminationHandler = { _ in exited.open() }
        try process.run()
        // A thread of its own reads stderr to its end with blocking reads: a FileHandle's
        // readabilityHandler, cleared at the end while tearDown clears it too, crashed
        // libdispatch's event loop.
        let (lines, pipe) = (lines, stderrPipe)
        Thread.detachNewThread {
            let fd = pipe.fileHandleForReading.fileDescriptor
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let count = read(fd, &buffer, buffer.count)
                if count > 0 {
                    lines.append(Data(buffer[..<count]))
                } else if count < 0 && errno == EINTR {
                    continue
                } else {
                    break
                }
            }
            lines.finish()
            withExtendedLifetime(pipe) {}
        }
    }

    /// Opened when the process has exited.
    private let exited = Latch()

    /// Everything written to stdout so far.
    var stdoutText: String { (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "" }

    /// Every stderr line so far.
    var stderrLines: [String] { lines.lines }

    /// Waits (up to `timeout` seconds) for a stderr line satisfying `predicate`; nil if none came.
    func waitForLine(timeout: TimeInterval = 20, where predicate: (String) -> Bool) -> String? {
        lines.waitForLine(until: Date().addingTimeInterval(timeout), where: predicate)
    }

    /// Waits (up to `timeout` seconds) until `count` stderr lines satisfy `predicate`; whether they did.
    func waitForLines(count: Int, timeout: TimeInterval = 20, where predicate: (String) -> Bool) -> Bool {
        lines.waitForLines(count: count, until: Date().addingTimeInterval(timeout), where: predicate)
    }

    /// How long `waitForExit` waits, after the exit, for the end of stderr: a process that left a
    /// child of its own holding stderr (a shell's pipeline) never closes it.
    static let stderrAfterExitLimit: TimeInterval = 2

    /// Waits (up to `timeout` seconds) for the process to exit, then for its stderr to end (every
    /// line read); returns its status, or nil if it is still running.
    func waitForExit(timeout: TimeInterval = 30) -> Int32? {
        guard exited.wait(until: Date().addingTimeInterval(timeout)) else { return nil }
        process.waitUntilExit()
        _ = lines.waitForEnd(until: Date().addingTimeInterval(Self.stderrAfterExitLimit))
        return process.terminationStatus
    }

    func signal(_ number: Int32) {
        kill(process.processIdentifier, number)
    }

    /// Kills the process if it still runs (for tearDown).
    func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    deinit { stop() }
}

/// Bytes arriving from a pipe, split into lines; thread-safe. Waiters are woken by each new line
/// and by the end of the pipe.
final class LineBuffer: @unchecked Sendable {
    // Safe: every access to `pending`, `complete` and `ended` holds `condition`.
    private let condition = NSCondition()
    private var pending = Data()
    private var complete: [String] = []
    private var ended = false

    func append(_ data: Data) {
        condition.lock()
        defer { condition.unlock() }
        pending.append(data)
        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
            complete.append(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
            pending = Data(pending[pending.index(after: newline)...])
        }
        condition.broadcast()
    }

    /// The pipe ended (the writer closed it).
    func finish() {
        condition.lock()
        defer { condition.unlock() }
        ended = true
        condition.broadcast()
    }

    var lines: [String] {
        condition.lock()
        defer { condition.unlock() }
        return complete
    }

    /// The first line satisfying `predicate`, waiting for it until `deadline` (nil: none came).
    func waitForLine(until deadline: Date, where predicate: (String) -> Bool) -> String? {
        condition.lock()
        defer { condition.unlock() }
        var checked = 0
        while true {
            if let line = complete[checked...].first(where: predicate) { return line }
            checked = complete.count
            if ended || !condition.wait(until: deadline) { return complete[checked...].first(where: predicate) }
        }
    }

    /// Waits until `count` lines satisfy `predicate` or `deadline` passes; whether they did.
    func waitForLines(count: Int, until deadline: Date, where predicate: (String) -> Bool) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        var (checked, found) = (0, 0)
        while true {
            found += complete[checked...].filter(predicate).count
            checked = complete.count
            if found >= count { return true }
            if ended || !condition.wait(until: deadline) { return complete[checked...].filter(predicate).count + found >= count }
        }
    }

    /// Waits until the pipe ends or `deadline` passes; whether it ended.
    func waitForEnd(until deadline: Date) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while !ended { if !condition.wait(until: deadline) { break } }
        return ended
    }
}

/// A one-way gate: closed until `open()`, then open for good; waiters wake when it opens.
final class Latch: @unchecked Sendable {
    // Safe: `isOpen` is accessed holding `condition`.
    private let condition = NSCondition()
    private var isOpen = false

    func open() {
        condition.lock()
        isOpen = true
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until it is open or `deadline` passes; whether it is open.
    func wait(until deadline: Date) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while !isOpen { if !condition.wait(until: deadline) { break } }
        return isOpen
    }
}

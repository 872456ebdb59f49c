import Foundation
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
        let lines = lines
        stderrPipe.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            lines.append(data)
        }
        try process.run()
    }

    /// Every stderr line so far.
    var stderrLines: [String] { lines.lines }

    /// Waits (up to `timeout` seconds) for a stderr line satisfying `predicate`; nil if none came.
    func waitForLine(timeout: TimeInterval = 20, where predicate: (String) -> Bool) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let line = lines.lines.first(where: predicate) { return line }
            usleep(5_000)
        }
        return nil
    }

    /// Waits (up to `timeout` seconds) for the process to exit; returns its status, or nil if it is still running.
    func waitForExit(timeout: TimeInterval = 30) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(5_000) }
        if process.isRunning { return nil }
        process.waitUntilExit()
        usleep(50_000)  // let the last stderr bytes arrive
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
        stderrPipe.fileHandleForReading.readabilityHandler = nil
    }

    deinit { stop() }
}

/// Bytes arriving from a pipe, split into lines; thread-safe.
final class LineBuffer: @unchecked Sendable {
    // Safe: every access to `pending` and `complete` holds `lock`.
    private let lock = NSLock()
    private var pending = Data()
    private var complete: [String] = []

    func append(_ data: Data) {
        lock.lock()
        defer { lock.unlock() }
        pending.append(data)
        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
            complete.append(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
            pending = Data(pending[pending.index(after: newline)...])
        }
    }

    var lines: [String] {
        lock.lock()
        defer { lock.unlock() }
        return complete
    }
}

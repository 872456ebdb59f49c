import Foundation
import XCTest

/// pb's drop-in names stream what they copy, as `pb copy` does (issue 39, item 6): each mode is
/// fed 96 MiB through a pipe (or a FIFO named as its file) and, once the last byte has gone
/// into the pipe, and so all but a pipe's worth has been read, while the mode still waits for
/// the input's end, its peak resident memory (VmHWM in /proc) must be below 32 MiB. Reading the
/// input whole first, as the modes did, puts three times that there at that point. (The input
/// was 256 MiB, which took minutes of the suite on two cores for no more certainty: the
/// ceiling, not the size, tells streaming from reading whole.)
final class CompatibilityStreamingTests: IntegrationTestCase {
    /// pb, the library and the protocol against a daemon: the server runs in this process.
    override class var daemonRunsInProcess: Bool { true }

    private static let inputSize = 96 << 20
    private static let memoryCeiling = 32 << 20

    /// One mode's run: the shell words after the link's name, where its stdin or its file is
    /// the FIFO, and the size the copy must have (what it adds or trims included).
    private struct Case {
        let command: String
        let pasteboard: String
        let expectedSize: Int
    }

    func testEveryModeCopiesAStreamThreeTimesItsMemoryCeilingInBoundedMemory() throws {
        let directory = try installedLinks()
        try pbOK("copy", "-p", "primary", stdin: Data("old".utf8))
        let size = Self.inputSize
        let cases = [
            Case(command: "pbcopy < \"$1\"", pasteboard: "general", expectedSize: size),
            Case(command: "pbcopy word < \"$1\"", pasteboard: "general", expectedSize: size),
            Case(command: "xclip -i -sel c \"$1\"", pasteboard: "general", expectedSize: size),
            Case(command: "xclip -sel c -rmlastnl < \"$1\"", pasteboard: "general", expectedSize: size - 1),
            Case(command: "xclip -sel c -f < \"$1\" > /dev/null", pasteboard: "general", expectedSize: size),
            Case(command: "wl-copy -n < \"$1\"", pasteboard: "general", expectedSize: size - 1),
            Case(command: "xsel -a < \"$1\"", pasteboard: "primary", expectedSize: size + 3),
            Case(command: "xsel -b -i < \"$1\"", pasteboard: "general", expectedSize: size),
        ]
        for (number, run) in cases.enumerated() {
            let fifo = sandbox.path("input-\(number)")
            XCTAssertEqual(mkfifo(fifo, 0o600), 0)
            let mode = try start("/bin/bash", ["-c", "PATH=\"$0:$PATH\"; exec \(run.command)", directory, fifo])
            guard let input = feed(fifo, bytes: size) else {
                XCTFail("\(run.command) stopped reading: \(mode.waitForExit() ?? -1), \(mode.stderrLines)")
                continue
            }
            let peak = try ProcessCounters.peakResidentBytes(of: mode.process.processIdentifier)
            try input.close()
            XCTAssertEqual(mode.waitForExit(timeout: 300), 0, "\(run.command): \(mode.stderrLines)")
            XCTAssertLessThan(peak, Self.memoryCeiling, "\(run.command) held \(peak >> 20) MiB after reading \(size >> 20) MiB")
            let items = try XCTUnwrap(listing(run.pasteboard)["items"] as? [[String: Any]])
            let representation = try XCTUnwrap((items.first?["representations"] as? [[String: Any]])?.first)
            XCTAssertEqual(representation["size"] as? Int, run.expectedSize, run.command)
            if run.pasteboard == "primary" { try pbOK("copy", "-p", "primary", stdin: Data("old".utf8)) }
        }
    }

    /// Writes `bytes` bytes ending in a newline into the FIFO at `path` (blocking until a reader
    /// opens it, and while the reader lags), then returns with the write end still open, so the
    /// reader is between its last read and the input's end; the caller closes it. Nil when the
    /// reader went away first (SIGPIPE is ignored, so the write fails instead of the test).
    private func feed(_ path: String, bytes: Int) -> FileHandle? {
        signal(SIGPIPE, SIG_IGN)
        guard let handle = FileHandle(forWritingAtPath: path) else { return nil }
        var chunk = Data(count: 1 << 20)
        chunk.withUnsafeMutableBytes { raw in
            for index in raw.indices { raw[index] = UInt8(truncatingIfNeeded: index &* 2_654_435_761 >> 13) }
        }
        for index in 0..<(bytes >> 20) {
            if index == (bytes >> 20) - 1 { chunk[chunk.count - 1] = UInt8(ascii: "\n") }
            guard (try? handle.write(contentsOf: chunk)) != nil else {
                try? handle.close()
                return nil
            }
        }
        return handle
    }
}

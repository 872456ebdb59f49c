import Foundation
import Glibc
import XCTest

/// `pb watch --exec`: a command run on each change, with the content on stdin and
/// `PASTEBOARD_STATE` set, one run at a time, until SIGINT or SIGTERM.
final class WatchExecTests: IntegrationTestCase {
    /// pb, the library and the protocol against a daemon: the server runs in this process.
    override class var daemonRunsInProcess: Bool { true }

    /// A run the recording script saw: the change count, `PASTEBOARD_STATE` and `PASTEBOARD_TYPE`.
    private struct Run: Equatable, CustomStringConvertible {
        let changeCount: Int
        let state: String
        let type: String
        var description: String { "\(changeCount) \(state) \(type)" }
    }

    private var runsDirectory: String { sandbox.path("runs") }

    /// An executable shell script in the sandbox; returns its path.
    private func script(_ name: String, _ body: String) throws -> String {
        let path = sandbox.path(name)
        try Data(("#!/bin/sh\n" + body).utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o755)
        return path
    }

    /// A script that saves its stdin as `runs/<change count>.stdin` and then appends
    /// `COUNT STATE TYPE` to `runs/log`, with `after` run last.
    private func recordingScript(after: String = "") throws -> String {
        try FileManager.default.createDirectory(atPath: runsDirectory, withIntermediateDirectories: true)
        return try script("record.sh", """
            cat > "\(runsDirectory)/$PASTEBOARD_CHANGE_COUNT.stdin"
            printf '%s %s %s\\n' "$PASTEBOARD_CHANGE_COUNT" "$PASTEBOARD_STATE" "$PASTEBOARD_TYPE" >> "\(runsDirectory)/log"
            \(after)
            """)
    }

    /// The runs recorded so far.
    private var runs: [Run] {
        let log = (try? String(contentsOfFile: runsDirectory + "/log", encoding: .utf8)) ?? ""
        return log.split(separator: "\n").map { line in
            let fields = line.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
            return Run(changeCount: Int(fields[0]) ?? -1, state: fields[1], type: fields.count > 2 ? fields[2] : "")
        }
    }

    /// Waits (up to 20 seconds) until `count` runs are recorded; returns them.
    @discardableResult
    private func waitForRuns(_ count: Int, of watch: ToolProcess, file: StaticString = #filePath, line: UInt = #line) -> [Run] {
        let deadline = Date().addingTimeInterval(20)
        while runs.count < count, Date() < deadline, watch.process.isRunning { usleep(10_000) }
        let recorded = runs
        XCTAssertGreaterThanOrEqual(recorded.count, count, "runs: \(recorded); stderr: \(watch.stderrLines)", file: file, line: line)
        return recorded
    }

    /// The stdin the command got for change `changeCount`.
    private func input(of changeCount: Int) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: "\(runsDirectory)/\(changeCount).stdin"))
    }

    func testTheCommandRunsForTheContentAndEachChangeWithItsStateAndBytes() throws {
        // The words after the command are its arguments, dashes and all: pb does not parse them.
        let watch = try startPB("watch", "--exec", try recordingScript(), "--json", "-t")
        XCTAssertEqual(waitForRuns(1, of: watch), [Run(changeCount: 0, state: "clear", type: "")],
                       "the first run is for the current content: an empty pasteboard")
        XCTAssertEqual(try input(of: 0), Data())

        try pbOK("copy", stdin: Data("hello\n".utf8))
        XCTAssertEqual(waitForRuns(2, of: watch).last, Run(changeCount: 1, state: "data", type: "public.utf8-plain-text"))
        XCTAssertEqual(try input(of: 1), Data("hello\n".utf8))

        // Every byte value, NUL and invalid UTF-8 included, and more than a pipe holds at once.
        var binary = Data((0...255).map { UInt8($0) })
        binary.append(try Data(contentsOf: URL(fileURLWithPath: try randomFile("random.bin", size: 3 << 20))))
        try pbOK("copy", "-t", "public.data", stdin: binary)
        XCTAssertEqual(waitForRuns(3, of: watch).last, Run(changeCount: 2, state: "data", type: "public.data"))
        XCTAssertEqual(try input(of: 2), binary, "the content arrives byte for byte")

        try pbOK("copy", "--sensitive", stdin: Data("hunter2".utf8))
        XCTAssertEqual(waitForRuns(4, of: watch).last, Run(changeCount: 3, state: "sensitive", type: ""))
        XCTAssertEqual(try input(of: 3), Data(), "a secret is not handed to the command by default")

        try pbOK("clear")
        XCTAssertEqual(waitForRuns(5, of: watch).last, Run(changeCount: 4, state: "clear", type: ""))
        XCTAssertEqual(try input(of: 4), Data())
        XCTAssertTrue(watch.process.isRunning, watch.stderrLines.joined(separator: "\n"))
        XCTAssertEqual(try String(contentsOfFile: watch.stdoutPath, encoding: .utf8), "", "pb itself prints nothing")
    }

    func testALazyCopyIsLoadedFromItsSourceForTheCommand() throws {
        let watch = try startPB("watch", "--exec", try recordingScript())
        waitForRuns(1, of: watch)
        let file = try randomFile("lazy.bin", size: 5 << 20)
        let source = try startPB("copy", "--lazy", "-v", file)
        XCTAssertEqual(waitForRuns(2, of: watch).last?.state, "data")
        XCTAssertEqual(try input(of: 1), try Data(contentsOf: URL(fileURLWithPath: file)))
        XCTAssertNotNil(source.waitForLine { $0.contains("delivered") }, "the live source served the load: \(source.stderrLines)")
    }

    func testTypesAreNegotiatedAsPasteDoesAndAChangeWithoutOneIsSkipped() throws {
        let watch = try startPB("watch", "-t", "text", "--include-sensitive", "-v", "--exec", try recordingScript())
        waitForRuns(1, of: watch)
        try pbOK("copy", "--rep", "public.html=<b>Hi</b>", "--rep", "public.utf8-plain-text=Hi")
        XCTAssertEqual(waitForRuns(2, of: watch).last, Run(changeCount: 1, state: "data", type: "public.utf8-plain-text"))
        XCTAssertEqual(try input(of: 1), Data("Hi".utf8), "-t text prefers plain text over the item's first representation")

        let png = sandbox.path("image.png")
        try PNGFixture.make(width: 4, height: 3).write(to: URL(fileURLWithPath: png))
        try pbOK("copy", png)
        XCTAssertNotNil(watch.waitForLine { $0.contains("change 2: no representation conforms to the -t types") },
                        "a change without text is skipped: \(watch.stderrLines)")

        try pbOK("copy", "--sensitive", stdin: Data("s3cret".utf8))
        XCTAssertEqual(waitForRuns(3, of: watch).map(\.changeCount), [0, 1, 3], "the image did not run the command")
        XCTAssertEqual(runs.last, Run(changeCount: 3, state: "sensitive", type: "public.utf8-plain-text"))
        XCTAssertEqual(try input(of: 3), Data("s3cret".utf8), "--include-sensitive hands the secret over")
    }

    func testAFailingCommandDoesNotStopTheWatch() throws {
        let watch = try startPB("watch", "--exec", try recordingScript(after: "exit 3"))
        waitForRuns(1, of: watch)
        XCTAssertNotNil(watch.waitForLine { $0 == "pb: change 0: \(self.sandbox.path("record.sh")) exited with status 3" },
                        "\(watch.stderrLines)")
        try pbOK("copy", stdin: Data("again".utf8))
        XCTAssertEqual(waitForRuns(2, of: watch).last?.state, "data")
        XCTAssertEqual(try input(of: 1), Data("again".utf8))
        XCTAssertNotNil(watch.waitForLine { $0.hasPrefix("pb: change 1:") && $0.hasSuffix("exited with status 3") })
        XCTAssertTrue(watch.process.isRunning)
    }

    func testACommandThatReadsNoInputDoesNotStopTheWatch() throws {
        try pbOK("copy", "-t", "public.data", stdin: Data(count: 2 << 20))
        let watch = try startPB("watch", "-v", "--exec", "true")
        XCTAssertNotNil(watch.waitForLine { $0 == "pb: change 1: true exited with status 0" }, "\(watch.stderrLines)")
        try pbOK("copy", stdin: Data("next".utf8))
        XCTAssertNotNil(watch.waitForLine { $0 == "pb: change 2: true exited with status 0" }, "\(watch.stderrLines)")
        XCTAssertTrue(watch.process.isRunning)
    }

    func testAMissingCommandIsAClearErrorAndLosesNothing() throws {
        try pbOK("copy", stdin: Data("kept".utf8))
        let notExecutable = try script("plain.txt", "echo never")
        chmod(notExecutable, 0o644)
        let cases: [(arguments: [String], message: String)] = [
            (["--exec", "no-such-command-for-pb"], "pb: cannot run 'no-such-command-for-pb': no such command in PATH"),
            (["--exec", sandbox.path("missing.sh")], "pb: cannot run '\(sandbox.path("missing.sh"))': No such file or directory"),
            (["--exec", notExecutable, "arg"], "pb: cannot run '\(notExecutable)': Permission denied"),
        ]
        for (arguments, message) in cases {
            let result = try runTool("pb", ["watch"] + arguments, environment: sandbox.environment(), in: sandbox)
            XCTAssertEqual(result.status, 1, "\(arguments): \(result.stderr)")
            XCTAssertEqual(result.stderr, message + "\n")
        }
        let noCommand = try pb("watch", "--exec")
        XCTAssertEqual(noCommand.status, 2, noCommand.stderr)
        XCTAssertTrue(noCommand.stderr.contains("--exec needs a command"), noCommand.stderr)
        let typeWithoutExec = try pb("watch", "-t", "text")
        XCTAssertEqual(typeWithoutExec.status, 2, typeWithoutExec.stderr)
        XCTAssertEqual(try pbOK("paste").stdoutText, "kept")
        XCTAssertEqual(try changeCount(), 1)
    }

    func testACommandThatCannotBeStartedAnyMoreEndsTheWatch() throws {
        let command = try recordingScript()
        let watch = try startPB("watch", "--exec", command)
        waitForRuns(1, of: watch)
        try FileManager.default.removeItem(atPath: command)
        try pbOK("copy", stdin: Data("still here".utf8))
        XCTAssertEqual(watch.waitForExit(), 1)
        XCTAssertTrue(watch.stderrLines.contains("pb: cannot run '\(command)': No such file or directory"), "\(watch.stderrLines)")
        XCTAssertEqual(try pbOK("paste").stdoutText, "still here", "the copy is on the pasteboard all the same")
    }

    func testChangesDuringARunAreCoalescedIntoOneRunForTheLatest() throws {
        // Each run waits while the file `hold` exists.
        let hold = sandbox.path("hold")
        XCTAssertTrue(FileManager.default.createFile(atPath: hold, contents: nil))
        let watch = try startPB("watch", "-v", "--exec", try recordingScript(after: "while [ -e '\(hold)' ]; do sleep 0.01; done"))
        XCTAssertEqual(waitForRuns(1, of: watch).first?.state, "clear")
        for text in ["first", "second", "third"] { try pbOK("copy", stdin: Data(text.utf8)) }
        XCTAssertNotNil(watch.waitForLine { $0 == "pb: change 3: data" }, "pb heard every change: \(watch.stderrLines)")
        try FileManager.default.removeItem(atPath: hold)
        XCTAssertEqual(waitForRuns(2, of: watch).map(\.changeCount), [0, 3], "one run, for the latest content")
        XCTAssertEqual(try input(of: 3), Data("third".utf8))
        try pbOK("copy", stdin: Data("fourth".utf8))
        XCTAssertEqual(waitForRuns(3, of: watch).map(\.changeCount), [0, 3, 4], "later changes run as usual")
    }

    func testSIGINTAndSIGTERMStopTheRunningCommandThenTheWatch() throws {
        for signalNumber in [SIGINT, SIGTERM] {
            let pidFile = sandbox.path("child-\(signalNumber).pid")
            let command = try script("hold-\(signalNumber).sh", "echo $$ > '\(pidFile).tmp' && mv '\(pidFile).tmp' '\(pidFile)'\nexec sleep 600\n")
            let watch = try startPB("watch", "--exec", command)
            let deadline = Date().addingTimeInterval(20)
            while !FileManager.default.fileExists(atPath: pidFile), Date() < deadline { usleep(10_000) }
            let child = try XCTUnwrap(Int32(try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
            XCTAssertEqual(kill(child, 0), 0, "the command runs")
            watch.signal(signalNumber)
            XCTAssertEqual(watch.waitForExit(), 0, "signal \(signalNumber): \(watch.stderrLines)")
            XCTAssertEqual(kill(child, 0), -1, "the command was stopped and reaped before pb exited")
            XCTAssertEqual(errno, ESRCH)
        }
    }
}

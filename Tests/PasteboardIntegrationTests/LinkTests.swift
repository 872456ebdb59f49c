import Foundation
import Glibc
import Pasteboard
import TestSupport
import XCTest

/// Linked daemons (issue 41) as a user sees them: machines of their own on this host
/// (`LinkedMachines`: a daemon, state and configuration each), `pb link` from one to another
/// through a real OpenSSH server on loopback, and what each machine's `pb` then pastes, lists
/// and remembers. Every wait is for a state the test can observe (a paste, a link's status, a
/// line, an exit), with a bound.
final class LinkTests: XCTestCase {
    private var machines: LinkedMachines?

    override func tearDown() {
        machines?.stop()
        machines = nil
        super.tearDown()
    }

    /// Machines named `names`, each with its daemon running, and sshd (stopped at tearDown).
    private func make(_ names: String...) throws -> LinkedMachines {
        let made = try LinkedMachines(names)
        machines = made
        return made
    }

    /// Starts `pb link` on `from` to `to` with `options` and waits until both ends say up.
    @discardableResult
    private func linkUp(_ machines: LinkedMachines, _ from: LinkedMachine, _ to: LinkedMachine, options: [String] = [], sshOptions: [String] = [],
                        file: StaticString = #filePath, line: UInt = #line) throws -> RunningLink {
        let link = try machines.link(from, to: to, options: options, sshOptions: sshOptions)
        XCTAssertTrue(link.waitUntilUp(), "the link from \(from.name) to \(to.name) never came up: \(link.log)\nsshd: \(machines.server.log)",
                      file: file, line: line)
        return link
    }

    /// Waits (up to `timeout` seconds) until `machine` pastes `text`; whether it did.
    private func waitForPaste(_ text: String, on machine: LinkedMachine, timeout: TimeInterval = 30) -> Bool {
        eventually(timeout: timeout) { machine.pasted() == text }
    }

    /// Copies `text` on `from` and waits (bounded) until `to` pastes it.
    private func assertCopy(_ text: String, on from: LinkedMachine, pastesOn to: LinkedMachine, over link: RunningLink,
                            file: StaticString = #filePath, line: UInt = #line) throws {
        try from.pbOK("copy", stdin: Data(text.utf8), file: file, line: line)
        XCTAssertTrue(waitForPaste(text, on: to), "\(to.name) pastes \(to.pasted() ?? "nothing"), not '\(text)': \(link.log)", file: file, line: line)
    }

    /// The representations of the first item `machine` lists, each `TYPE SIZE` with ` lazy` when
    /// a live source (here: the link) produces it.
    private func representations(on machine: LinkedMachine) throws -> [String] {
        let items = try XCTUnwrap(machine.listing()["items"] as? [[String: Any]])
        let first = items.first?["representations"] as? [[String: Any]] ?? []
        return first.map { representation in
            let size = (representation["size"] as? Int).map(String.init) ?? "?"
            return "\(representation["type"] as? String ?? "?") \(size)\((representation["lazy"] as? Bool) == true ? " lazy" : "")"
        }
    }

    private func integer(_ status: [String: Any]?, _ key: String) -> Int { status?[key] as? Int ?? 0 }

    // MARK: - Copy here, paste there

    func testACopyOnOneMachinePastesOnTheOtherWithEveryRepresentation() throws {
        let machines = try make("A", "B")
        let (a, b) = (machines["A"], machines["B"])
        let link = try linkUp(machines, a, b)
        XCTAssertEqual(link.status?["peer"] as? String, "B", "the dialing end names the other machine")
        XCTAssertEqual(link.servedStatus?["peer"] as? String, "A", "and the served end this one")

        try assertCopy("hello from A\n", on: a, pastesOn: b, over: link)
        let origin = try XCTUnwrap(b.history().first?["origin"] as? [String: Any], "B's history says where the copy came from")
        XCTAssertEqual(origin["name"] as? String, "A")
        XCTAssertEqual(origin["machine"] as? String, try a.machineID())
        XCTAssertNil(try a.history().first?["origin"], "A's own copy names no other machine")

        // An image with its title: the title (small text) crosses with the change, the image is
        // a promise B fetches from A when it is pasted.
        let image = PNGFixture.make(width: 48, height: 32, seed: 7)
        let png = a.sandbox.path("lighthouse.png")
        try image.write(to: URL(fileURLWithPath: png))
        try a.pbOK("copy", "--rep", "public.png=@\(png)", "--rep", "public.utf8-plain-text=Lighthouse")
        XCTAssertTrue(eventually(timeout: 30) { (try? representations(on: b))?.first?.hasPrefix("public.png") == true }, link.log)
        XCTAssertEqual(try representations(on: b), ["public.png \(image.count) lazy", "public.utf8-plain-text 10"],
                       "B lists A's types, best first, the image fetched only when pasted")
        let listed = try b.pbOK("list").stdoutText
        XCTAssertTrue(listed.contains("public.png  image/png  \(image.count) bytes  (lazy)"), listed)

        XCTAssertEqual(try b.pbOK("paste", "-t", "text").stdoutText, "Lighthouse")
        let pasted = b.sandbox.path("pasted.png")
        try b.pbOK("paste", "-t", "public.png", "-o", pasted)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: pasted)), image, "the image B pastes is A's, byte for byte")
        XCTAssertEqual(try b.pbOK("paste", "-t", "image/png").stdout, image, "and again, by MIME type, to stdout")
    }

    /// Two machines with content of their own meet: both settle on the later content, over the
    /// first session (the first offers follow the hello at once; the other end once cut the link
    /// off for them, "a request before link-hello", and the link had to start again).
    /// `link = HOST` in pasteboardd.conf: the daemon runs the link itself (a `pb link` child with
    /// the `link-*` settings), which comes up without any `pb link` of the user's, carries a
    /// copy, and ends with the daemon.
    func testALinkTheDaemonKeepsFromItsConfiguration() throws {
        let machines = try make("A", "B")
        let (a, b) = (machines["A"], machines["B"])
        a.stopDaemon()
        try a.sandbox.writeConfiguration("""
            machine-name = A
            link = \(machines.destination(of: b))
            link-ssh = \(machines.sshCommand)
            link-remote-pb = \(b.remotePB)

            """)
        try a.startDaemon()
        XCTAssertTrue(eventually(timeout: 60) { a.link(machines.destination(of: b))?["state"] as? String == "up" },
                      "the daemon's link never came up: \(a.links())")
        try a.pbOK("copy", stdin: Data("kept by the daemon\n".utf8))
        XCTAssertTrue(waitForPaste("kept by the daemon\n", on: b), "B pastes \(b.pasted() ?? "nothing")")
        let child = try XCTUnwrap(a.link(machines.destination(of: b))?["pid"] as? Int)
        a.stopDaemon()
        XCTAssertTrue(eventually(timeout: 15) { kill(pid_t(child), 0) != 0 }, "the link child \(child) outlived its daemon")
    }

    func testMachinesThatMeetSettleOnTheLaterContentOverTheirFirstSession() throws {
        let machines = try make("A", "B")
        let (a, b) = (machines["A"], machines["B"])
        try a.pbOK("copy", stdin: Data("older, on A".utf8))
        try b.pbOK("copy", stdin: Data("newer, on B".utf8))
        let link = try linkUp(machines, a, b)
        let served = link.servedStatus?["pid"] as? Int
        XCTAssertTrue(waitForPaste("newer, on B", on: a), "A pastes \(a.pasted() ?? "nothing"): \(link.log)")
        XCTAssertEqual(b.pasted(), "newer, on B", "the later copy stays on B")
        try assertCopy("marker", on: a, pastesOn: b, over: link)
        XCTAssertFalse(link.log.contains("cutting the link off"), link.log)
        XCTAssertEqual(link.servedStatus?["pid"] as? Int, served, "one session throughout: \(link.log)")
    }

    // MARK: - Large data

    /// 256 MiB copied on A: only its offer crosses until B pastes it; then it streams through
    /// ssh under credit, byte-identical, and no process on the way holds it in memory.
    func testALargeCopyCrossesOnlyWhenPastedAndInBoundedMemory() throws {
        let machines = try make("A", "B")
        let (a, b) = (machines["A"], machines["B"])
        let link = try linkUp(machines, a, b)
        let size = 256 << 20
        let original = a.sandbox.path("large.bin")
        let made = try runTool("/bin/sh", ["-c", "head -c \(size) /dev/urandom > \"$0\"", original], environment: a.environment, in: a.sandbox)
        XCTAssertEqual(made.status, 0, made.stderr)
        let copied = try runTool("/bin/sh", ["-c", "exec \"$0\" copy -t public.data < \"$1\"", Binaries.url("pb").path, original],
                                 environment: a.environment, in: a.sandbox)
        XCTAssertEqual(copied.status, 0, copied.stderr)

        XCTAssertTrue(eventually(timeout: 30) { (try? representations(on: b)) == ["public.data \(size) lazy"] },
                      "B lists the copy as a promise: \((try? representations(on: b)) ?? []); \(link.log)")
        // Once A's status counts the change as sent, its bytes include the offer's.
        XCTAssertTrue(eventually(timeout: 30) { integer(link.status, "changesSent") >= 1 }, "\(link.status ?? [:])")
        let beforePaste = integer(link.status, "bytesSent")
        XCTAssertLessThan(beforePaste, 64 << 10, "only the offer crossed before the paste")

        let pasted = b.sandbox.path("large.pasted")
        try b.pbOK("paste", "-t", "public.data", "-o", pasted)
        let compared = try runTool("/usr/bin/cmp", [original, pasted], environment: b.environment, in: b.sandbox)
        XCTAssertEqual(compared.status, 0, "B pastes A's bytes: \(compared.stdoutText)\(compared.stderr)")
        XCTAssertTrue(eventually(timeout: 30) { integer(link.status, "bytesSent") >= size }, "A's status counts the bytes it sent: \(link.status ?? [:])")

        let ceiling = 96 << 20
        let served = try XCTUnwrap(link.servedStatus?["pid"] as? Int, "B's end of the link")
        let processes: [(String, pid_t)] = [
            ("A's pb link", link.pid), ("B's pb link --serve", pid_t(served)),
            ("A's pasteboardd", try XCTUnwrap(a.daemon).process.processIdentifier),
            ("B's pasteboardd", try XCTUnwrap(b.daemon).process.processIdentifier),
        ]
        for (name, pid) in processes {
            let peak = try ProcessCounters.peakResidentBytes(of: pid)
            XCTAssertLessThan(peak, ceiling, "\(name) held \(peak >> 20) MiB at its peak while \(size >> 20) MiB crossed")
        }
    }

    // MARK: - Three machines

    /// A—B—C (A dials B, B dials C): a copy at either end reaches the other end through B, and
    /// every machine takes each change exactly once (no echo back, no second write).
    func testAChainOfThreeMachinesCarriesEachChangeOnceToEveryMachine() throws {
        let machines = try make("A", "B", "C")
        let (a, b, c) = (machines["A"], machines["B"], machines["C"])
        let ab = try linkUp(machines, a, b)
        let bc = try linkUp(machines, b, c)
        let counts = try [a, b, c].map { try $0.changeCount() }

        try assertCopy("made on A", on: a, pastesOn: c, over: bc)
        try assertCopy("made on C", on: c, pastesOn: a, over: ab)
        // A marker from each end: what an echo would have brought comes before it on every link.
        try assertCopy("marker from A", on: a, pastesOn: c, over: bc)
        try assertCopy("marker from C", on: c, pastesOn: a, over: ab)
        XCTAssertTrue(waitForPaste("marker from C", on: b))

        let texts = ["made on A", "made on C", "marker from A", "marker from C"]
        for (machine, before) in zip([a, b, c], counts) {
            XCTAssertEqual(try machine.changeCount(), before + texts.count, "\(machine.name)'s general pasteboard changed once per copy")
            let history = try machine.history()
            for text in texts {
                let entries = history.filter { $0["preview"] as? String == text }
                XCTAssertEqual(entries.count, 1, "\(machine.name)'s history records '\(text)' once: \(history.map { $0["preview"] ?? "-" })")
                // Made on the machine its text names: there the entry has no origin, elsewhere that machine's.
                let maker = text.hasSuffix("A") ? "A" : "C"
                let origin = (entries.first?["origin"] as? [String: Any])?["name"] as? String
                XCTAssertEqual(origin, machine.name == maker ? nil : maker, "the origin of '\(text)' on \(machine.name)")
            }
        }
    }

    // MARK: - Concurrent copies

    /// Copies made on A and B at the same moment settle on one of them on both machines.
    func testSimultaneousCopiesOnTwoMachinesSettleOnTheSameContent() throws {
        let machines = try make("A", "B")
        let (a, b) = (machines["A"], machines["B"])
        let link = try linkUp(machines, a, b)
        for round in 1...4 {
            let (x, y) = ("x\(round) from A", "y\(round) from B")
            let onA = try a.startPB(["copy", "--rep", "public.utf8-plain-text=\(x)"])
            let onB = try b.startPB(["copy", "--rep", "public.utf8-plain-text=\(y)"])
            XCTAssertEqual(onA.waitForExit(), 0, "\(onA.stderrLines)")
            XCTAssertEqual(onB.waitForExit(), 0, "\(onB.stderrLines)")
            // Once both copies are made, each machine's content only moves to the winner: the
            // first moment both agree, they agree for good.
            var seen: (String?, String?) = (nil, nil)
            let settled = eventually(timeout: 30) {
                seen = (a.pasted(), b.pasted())
                return seen.0 != nil && seen.0 == seen.1
            }
            XCTAssertTrue(settled, "round \(round): A pastes \(seen.0 ?? "nothing"), B \(seen.1 ?? "nothing"): \(link.log)")
            XCTAssertTrue(seen.0 == x || seen.0 == y, "round \(round): one of the two copies wins, not \(seen.0 ?? "nothing")")
        }
    }

    // MARK: - Failures on the way

    /// ssh dies while B pastes a promise of A's: the paste fails at once with a message and no
    /// file, both daemons go on, and the link comes back by itself.
    func testSSHKilledMidTransferFailsThePasteAndTheLinkComesBack() throws {
        let machines = try make("A", "B")
        let (a, b) = (machines["A"], machines["B"])
        let link = try linkUp(machines, a, b)

        // A source in this process on A: 4 MiB of a promised 64, then nothing until cancelled,
        // so the transfer is surely in flight when ssh is killed.
        let onPasteboard = Latch(), ended = Latch()
        let socket = a.sandbox.socketPath
        let source = Task.detached {
            defer { ended.open() }
            try await PasteboardConnection.withConnection(socketPath: socket, clientName: "link tests", autoStart: false) { connection in
                var provider = ItemProvider(suggestedName: "stream.bin")
                provider.registerDataRepresentation(for: .data, size: 64 << 20) { writer in
                    // What the daemon captures as this connection ends is not the transfer under test.
                    if writer.isCapture { return }
                    try await writer.write(contentsOf: [UInt8](repeating: 0x5A, count: 4 << 20))
                    try await Task.sleep(for: .seconds(3600))
                }
                try await Pasteboard(connection: connection).setItems([provider])
                onPasteboard.open()
                try await Task.sleep(for: .seconds(3600))
            }
        }
        defer {
            source.cancel()
            XCTAssertTrue(ended.wait(until: Date().addingTimeInterval(20)), "the source in this process ended")
        }
        XCTAssertTrue(onPasteboard.wait(until: Date().addingTimeInterval(20)), "the source's item is on A's pasteboard")
        XCTAssertTrue(eventually(timeout: 30) { (try? representations(on: b)) == ["public.data \(64 << 20) lazy"] },
                      "B lists A's promise: \((try? representations(on: b)) ?? [])")

        let output = b.sandbox.path("out/stream.bin")
        try FileManager.default.createDirectory(atPath: b.sandbox.path("out"), withIntermediateDirectories: true)
        let paste = try b.startPB(["paste", "-o", output])
        defer { paste.stop() }
        let flowing = eventually(timeout: 30) {
            [link.status, link.servedStatus].contains { status in
                (status?["transfers"] as? [[String: Any]])?.contains { ($0["bytes"] as? Int ?? 0) > 0 } == true
            }
        }
        XCTAssertTrue(flowing, "bytes flow: A \(link.status ?? [:]), B \(link.servedStatus ?? [:])")
        let oldServed = link.servedStatus?["pid"] as? Int
        let ssh = try XCTUnwrap(link.sshProcess, "pb link runs ssh")
        XCTAssertEqual(kill(ssh, SIGKILL), 0)

        let status = paste.waitForExit(timeout: 60)
        XCTAssertNotNil(status, "B's paste ends once the link is gone")
        XCTAssertNotEqual(status, 0, "B's paste fails")
        let message = paste.stderrLines.filter { !$0.isEmpty }
        XCTAssertEqual(message.count, 1, "one line says why: \(message)")
        XCTAssertTrue(message.last?.hasPrefix("pb: ") == true && message.last?.contains("pb link") == true, "it names the link: \(message)")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: b.sandbox.path("out")), [], "no file, not even a partial one")
        try a.pbOK("list")
        try b.pbOK("list")

        XCTAssertTrue(link.waitUntilUpAgain(replacing: oldServed), "the link came back: \(link.log)")
        try assertCopy("after the drop", on: a, pastesOn: b, over: link)
    }

    /// The other machine's end freezes (SIGSTOP) while linked: A's end gives up on it once it
    /// has not answered pings for the stall bound (30 s), says so in its status, and links again.
    func testAFrozenPeerIsGivenUpOnAndTheLinkComesBack() throws {
        let machines = try make("A", "B")
        let (a, b) = (machines["A"], machines["B"])
        let link = try linkUp(machines, a, b)
        let frozen = pid_t(try XCTUnwrap(link.servedStatus?["pid"] as? Int))
        XCTAssertEqual(kill(frozen, SIGSTOP), 0)
        defer { kill(frozen, SIGKILL) }

        XCTAssertNotNil(link.process.waitForLine(timeout: 90) { $0.contains("B did not answer for 30 s: the link stalled; trying again") },
                        "A's end gives up on the frozen one, saying why: \(link.log)")
        XCTAssertTrue(link.process.process.isRunning, "A's pb link goes on: \(link.log)")
        XCTAssertTrue(link.waitUntilUpAgain(replacing: Int(frozen)), "a new link to B: \(link.log)")
        try assertCopy("after the freeze", on: a, pastesOn: b, over: link)
    }

    // MARK: - Secrets

    /// A sensitive copy stays on its machine unless both ends of the link let secrets cross.
    func testASensitiveCopyCrossesOnlyWhenBothEndsAllowIt() throws {
        let machines = try make("A", "B")
        let (a, b) = (machines["A"], machines["B"])
        let link = try linkUp(machines, a, b)
        try assertCopy("public words", on: a, pastesOn: b, over: link)
        let count = try b.changeCount()

        try a.pbOK("copy", "--sensitive", stdin: Data("hunter2".utf8))
        XCTAssertNotNil(link.process.waitForLine { $0.contains("sensitive copy on 'general' stays on this machine") },
                        "A's end says it kept the secret: \(link.log)")
        XCTAssertEqual(b.pasted(), "public words", "B still has the earlier copy")
        XCTAssertEqual(try b.changeCount(), count, "nothing changed on B")
        let servedPID = link.servedStatus?["pid"] as? Int
        link.stop()
        XCTAssertTrue(eventually { servedPID.map { ProcessTree.hasEnded(pid_t($0)) } ?? true }, "B's end ended with the link")

        let trusting = try linkUp(machines, a, b, options: ["--sensitive"])
        XCTAssertTrue(waitForPaste("hunter2", on: b), "with --sensitive on both ends it crosses: B pastes \(b.pasted() ?? "nothing"): \(trusting.log)")
        XCTAssertTrue(try b.pbOK("list").stdoutText.contains("(sensitive)"), "and is sensitive on B too")
    }

    // MARK: - Restarts

    /// B's daemon stops while linked: B's end of the link ends, A's keeps trying, and once B's
    /// daemon is back the link is up again and copies cross.
    func testTheLinkComesBackAfterTheOtherDaemonRestarts() throws {
        try restartTheOtherDaemon()
    }

    /// The same through an ssh that shares one connection (ControlMaster, kept by ControlPersist
    /// in a process of its own, which holds none of pb link's pipes), as the help suggests for
    /// links. The master outlives its last client by a second.
    func testTheLinkComesBackAfterTheOtherDaemonRestartsThroughASharedSSHConnection() throws {
        try restartTheOtherDaemon { a in ["-o", "ControlMaster=auto", "-o", "ControlPersist=1", "-o", "ControlPath=\(a.home)/cm-%C"] }
    }

    private func restartTheOtherDaemon(sshOptions: (LinkedMachine) -> [String] = { _ in [] }) throws {
        let machines = try make("A", "B")
        let (a, b) = (machines["A"], machines["B"])
        let link = try linkUp(machines, a, b, sshOptions: sshOptions(a))
        try assertCopy("before the restart", on: a, pastesOn: b, over: link)
        let served = try XCTUnwrap(link.servedStatus?["pid"] as? Int)

        b.stopDaemon()
        XCTAssertTrue(eventually(timeout: 30) { ProcessTree.hasEnded(pid_t(served)) }, "B's pb link --serve ends with its daemon")
        XCTAssertTrue(link.process.process.isRunning, "A's pb link keeps trying")
        try b.startDaemon()
        XCTAssertTrue(link.waitUntilUp(timeout: 90), "the link came back: \(link.log)")
        XCTAssertEqual(b.pasted(), "before the restart", "B kept its content across the restart")
        try assertCopy("after the restart", on: a, pastesOn: b, over: link)
    }

    // MARK: - Misbehaving peers

    /// An "ssh" of the test's that writes `script`'s output as the other end (not sshd). A
    /// script that means to stay silent keeps its standard output open (its shell holds it while
    /// `cat` reads): `exec cat > /dev/null` would close it, which the link sees as a hang-up.
    private func fakeSSH(_ name: String, _ script: String, on machine: LinkedMachine) throws -> String {
        let path = machine.sandbox.path(name)
        try "#!/bin/sh\n\(script)\n".write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o755)
        return path
    }

    /// `pb link --once` through `script`: exits 1 with one line that contains `problem`, and the
    /// local daemon goes on.
    private func assertRefused(_ script: String, saying problem: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let machines = try self.machines ?? make("A")
        let a = machines["A"]
        let ssh = try fakeSSH("ssh-\(UUID().uuidString.prefix(8))", script, on: a)
        let result = try machines.linkOnce(a, to: "b", options: ["--ssh", ssh])
        XCTAssertEqual(result.status, 1, result.stderr, file: file, line: line)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        let final = lines.filter { $0.hasPrefix("pb: ") }
        XCTAssertEqual(final.count, 1, "one line of failure: \(lines)", file: file, line: line)
        XCTAssertTrue(final.first?.contains(problem) == true, "'\(problem)' in \(lines)", file: file, line: line)
        XCTAssertTrue(try XCTUnwrap(a.daemon).process.isRunning, "A's daemon goes on", file: file, line: line)
        try a.pbOK("list", file: file, line: line)
    }

    func testAPeerThatSendsGarbageOrAHugeFrameIsRefusedWithOneLine() throws {
        // A login banner on stdout, as a shell's startup file prints it.
        try assertRefused("printf 'Welcome to the machine!\\n'; cat > /dev/null", saying: "frame length")
        // A frame whose payload is not a message.
        try assertRefused("printf '\\000\\000\\000\\016\\001\\000\\000\\000\\000\\000not json'; cat > /dev/null", saying: "payload is not JSON")
        // A header that announces 2 GiB.
        try assertRefused("printf '\\177\\377\\377\\377\\001\\000\\000\\000\\000\\000'; cat > /dev/null", saying: "frame length 2147483647")
    }

    /// A peer that says nothing is given up on when the handshake's bound (60 s) passes.
    func testAPeerThatNeverAnswersIsGivenUpOnAfterTheHandshakeTimeout() throws {
        try assertRefused("cat > /dev/null", saying: "did not answer within 60 s")
    }

    func testAMissingRemotePBIsNamed() throws {
        let machines = try make("A", "B")
        let a = machines["A"]
        let result = try machines.linkOnce(a, to: "b", options: ["--ssh", machines.sshCommand, "--remote-pb", "/nonexistent/pb"])
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("b has no '/nonexistent/pb'"), result.stderr)
        XCTAssertEqual(result.stderr.split(separator: "\n").filter { $0.hasPrefix("pb: ") }.count, 1, result.stderr)
    }
}

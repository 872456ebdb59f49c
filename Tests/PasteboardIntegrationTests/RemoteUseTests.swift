import Foundation
import Glibc
import XCTest

/// Using the pasteboard from a "remote" shell through OpenSSH's Unix-socket forwarding
/// (`ssh -R`) on loopback: every command works with `PASTEBOARD_SOCKET` naming the forwarded
/// socket, and lazy loads stream in-band, since the daemon offers no descriptor hand-off to a
/// client behind a forwarder.
final class RemoteUseTests: IntegrationTestCase {
    private var forwarding: SSHForwarding!

    override func setUpWithError() throws {
        try super.setUpWithError()
        forwarding = try SSHForwarding(forwarding: sandbox.socketPath, in: sandbox)
    }

    override func tearDown() {
        forwarding?.stop()
        forwarding = nil
        super.tearDown()
    }

    /// The environment of a process on the remote side: the forwarded socket, no auto-start.
    private var remote: [String: String] {
        sandbox.environment().merging(["PASTEBOARD_SOCKET": forwarding.remoteSocket]) { $1 }
    }

    /// Runs `pb` on the remote side.
    @discardableResult
    private func remotePB(_ arguments: String..., stdin: Data = Data()) throws -> ProcessResult {
        try runTool("pb", arguments, stdin: stdin, environment: remote, in: sandbox)
    }

    private let handedOff = "through a handed-off socket"

    func testCopyPasteListAndWatchWorkThroughTheForwardedSocket() throws {
        let copied = try remotePB("copy", stdin: Data("from the remote shell\n".utf8))
        XCTAssertEqual(copied.status, 0, copied.stderr)
        XCTAssertEqual(try pbOK("paste").stdoutText, "from the remote shell\n")

        try pbOK("copy", "--rep", "public.html=<b>Hi</b>", "--rep", "public.utf8-plain-text=Hi")
        XCTAssertEqual(try remotePB("paste", "-t", "text").stdoutText, "Hi", "negotiation is the daemon's, wherever the client is")
        XCTAssertEqual(try remotePB("paste", "-t", "text/html").stdoutText, "<b>Hi</b>")
        let listed = try remotePB("list", "--json")
        XCTAssertEqual(listed.status, 0, listed.stderr)
        XCTAssertEqual((try JSONSerialization.jsonObject(with: listed.stdout) as? [String: Any])?["changeCount"] as? Int, try changeCount())

        let watch = try start("pb", ["watch"], environment: remote)
        try pbOK("copy", stdin: Data("seen remotely".utf8))
        let count = try changeCount()
        let deadline = Date().addingTimeInterval(20)
        var output = ""
        while !output.contains("\(count) public.utf8-plain-text\n"), Date() < deadline {
            output = (try? String(contentsOfFile: watch.stdoutPath, encoding: .utf8)) ?? ""
            usleep(10_000)
        }
        XCTAssertTrue(output.contains("\(count) public.utf8-plain-text\n"), output)

        // With the forwarding down, a remote pb says the daemon is unreachable; it starts no
        // daemon of its own on the forwarded socket's path.
        forwarding.stop()
        let closed = Date().addingTimeInterval(20)
        while (try? RawClient(socketPath: forwarding.remoteSocket)).map({ $0.close() }) != nil, Date() < closed { usleep(10_000) }
        let unreachable = try remotePB("paste")
        XCTAssertEqual(unreachable.status, 3, unreachable.stderr)
        XCTAssertNil(try? RawClient(socketPath: forwarding.remoteSocket), "nothing listens on the forwarded path")
        XCTAssertEqual(try pbOK("paste").stdoutText, "seen remotely", "the local pasteboard is untouched")
    }

    /// The README's setup: `ssh -R /tmp/pb-alice.sock:…`, a socket sshd makes as the user (mode
    /// 0600) in a shared sticky directory. pb checks the directory only of the paths it derives
    /// itself; for an explicit `PASTEBOARD_SOCKET` the peer's uid (sshd's session, the user's)
    /// decides, so this keeps working.
    func testAForwardedSocketInASharedStickyDirectoryIsTrusted() throws {
        let shared = sandbox.path("shared-tmp")
        XCTAssertEqual(mkdir(shared, 0o700), 0)
        chmod(shared, 0o1777)  // as /tmp
        let socket = shared + "/pb-user.sock"
        let sticky = try SSHForwarding(forwarding: sandbox.socketPath, to: socket, in: sandbox)
        defer { sticky.stop() }
        var info = stat()
        XCTAssertEqual(lstat(socket, &info), 0)
        XCTAssertEqual(info.st_uid, getuid(), "sshd made the socket as the user")
        XCTAssertEqual(info.st_mode & 0o777, 0o600)
        let environment = remote.merging(["PASTEBOARD_SOCKET": socket]) { $1 }
        let copied = try runTool("pb", ["copy", "--sensitive"], stdin: Data("through /tmp".utf8), environment: environment, in: sandbox)
        XCTAssertEqual(copied.status, 0, copied.stderr)
        let pasted = try runTool("pb", ["paste"], environment: environment, in: sandbox)
        XCTAssertEqual(pasted.status, 0, pasted.stderr)
        XCTAssertEqual(pasted.stdoutText, "through /tmp")
        let listed = try runTool("pb", ["list"], environment: environment, in: sandbox)
        XCTAssertEqual(listed.status, 0, listed.stderr)
    }

    func testDragAndDropAndWatchExecWorkThroughTheForwardedSocket() throws {
        let original = sandbox.path("notes.txt")
        try Data("dragged from afar\n".utf8).write(to: URL(fileURLWithPath: original))
        let drag = try start("pb", ["drag", original], environment: remote)
        XCTAssertNotNil(drag.waitForLine { $0.contains("drag session ") }, "\(drag.stderrLines)")
        let into = sandbox.path("dropped")
        try FileManager.default.createDirectory(atPath: into, withIntermediateDirectories: true)
        try pbOK("drop", "-o", into)
        XCTAssertEqual(drag.waitForExit(), 0, "\(drag.stderrLines)")
        XCTAssertEqual(try String(contentsOfFile: drag.stdoutPath, encoding: .utf8), "copy\n")
        XCTAssertEqual(try String(contentsOfFile: into + "/notes.txt", encoding: .utf8), "dragged from afar\n")

        let received = sandbox.path("received.txt")
        let record = sandbox.path("record.sh")
        try Data("#!/bin/sh\n[ \"$PASTEBOARD_STATE\" = data ] && cat >> '\(received)'\n".utf8).write(to: URL(fileURLWithPath: record))
        chmod(record, 0o755)
        let watch = try start("pb", ["watch", "--exec", record], environment: remote)
        try pbOK("copy", stdin: Data("to the remote hook".utf8))
        let deadline = Date().addingTimeInterval(20)
        while (try? String(contentsOfFile: received, encoding: .utf8)) != "to the remote hook", Date() < deadline { usleep(10_000) }
        XCTAssertEqual(try? String(contentsOfFile: received, encoding: .utf8), "to the remote hook", "\(watch.stderrLines)")
    }

    func testTheDaemonOffersNoHandoffThroughTheForwarder() throws {
        let local = try RawClient(socketPath: sandbox.socketPath)
        defer { local.close() }
        XCTAssertNotNil(try local.hello().json?["handoff"], "a local client is offered hand-off")
        let forwarded = try RawClient(socketPath: forwarding.remoteSocket)
        defer { forwarded.close() }
        let welcome = try forwarded.hello()
        XCTAssertEqual(welcome.op, "welcome")
        XCTAssertNil(welcome.json?["handoff"], "the socket's peer is ssh, not the client: no hand-off")
    }

    /// A lazy copy on one side, a paste with progress on the other: the bytes stream through
    /// the daemon and ssh, with progress, and the source says it was not handed off.
    private func lazyTransfer(sourceEnvironment: [String: String], destinationEnvironment: [String: String], size: Int) throws {
        let file = try randomFile("lazy-\(size).bin", size: size)
        let source = try start("pb", ["copy", "--lazy", "-v", file], environment: sourceEnvironment)
        try waitForLazyItems()
        let output = sandbox.path("pasted-\(size).bin")
        let paste = try runTool("pb", ["paste", "--progress", "-o", output], environment: destinationEnvironment, in: sandbox)
        XCTAssertEqual(paste.status, 0, paste.stderr)
        XCTAssertTrue(FileManager.default.contentsEqual(atPath: output, andPath: file), "the pasted file is the copied one, byte for byte")
        let progress = progressLines(paste.stderr.split(separator: "\n").map(String.init))
        XCTAssertGreaterThan(progress.count, 1, "progress as the bytes arrive: \(paste.stderr)")
        XCTAssertEqual(progress.last?.completed, size, "progress ends at the total")
        XCTAssertTrue(progress.allSatisfy { $0.total == size }, "every report carries the total")
        XCTAssertEqual(progress.map(\.completed), progress.map(\.completed).sorted(), "progress never goes back")
        XCTAssertNotNil(source.waitForLine { $0.contains("delivered") }, "the source hears the delivery: \(source.stderrLines)")
        let loading = source.stderrLines.first { $0.contains("loading for") }
        XCTAssertNotNil(loading, "\(source.stderrLines)")
        XCTAssertFalse(loading?.contains(handedOff) == true, "in-band through the forwarder: \(loading ?? "")")
        source.stop()
    }

    func testALazyTransferFromARemoteSourceStreamsInBandWithProgress() throws {
        try lazyTransfer(sourceEnvironment: remote, destinationEnvironment: sandbox.environment(), size: 6 << 20)
    }

    func testALazyTransferToARemoteDestinationStreamsInBandWithProgress() throws {
        try lazyTransfer(sourceEnvironment: sandbox.environment(), destinationEnvironment: remote, size: 6 << 20)
    }
}

#if canImport(Glibc)
import Glibc
#endif
import Pasteboard

/// The link scenario: two daemons ("machines" A and B, each with its own state and so its own
/// machine id) linked by `pb link` through a real sshd on loopback, against ssh itself:
/// - a 16-byte paste on B of A's copy (binary, so B fetches it from A over the open link when
///   pasted) against `ssh HOST cat FILE` of the same 16 bytes (median of `runs`);
/// - `size` bytes of A's copy pulled across the link by `pb paste > /dev/null` on B against
///   `ssh HOST cat FILE > /dev/null` (best of `rounds`).
struct LinkSpeed {
    let runs: Int
    let rounds: Int
    let size: Int
    let progress: (String) -> Void

    func rows() async throws -> [BenchRow] {
        let small = "Link: 16-byte paste on B of A's copy, fetched over the open link (median of \(runs))"
        let large = "Link: \(size >> 20) MiB of A's copy pulled to B by `pb paste > /dev/null` (best of \(rounds))"
        if let missing = LoopbackSSH.missing {
            return [small, large].map { BenchRow(scenario: $0, ours: "—", baseline: missing, ratio: nil, goal: "—", met: nil) }
        }
        let b = try await BenchDaemon.start()
        defer { b.stop() }
        let a = try await BenchDaemon.start()
        defer { a.stop() }
        let ssh = try LoopbackSSH.start(in: a.directory)
        defer { ssh.stop() }
        let pb = Spawned.ownDirectory + "/pb"
        let onA = ChildEnvironment(setting: ["PASTEBOARD_SOCKET": a.socketPath])
        let onB = ChildEnvironment(setting: ["PASTEBOARD_SOCKET": b.socketPath])
        let remote = "env PASTEBOARD_SOCKET=\(b.socketPath) PASTEBOARD_NO_AUTOSTART=1 \(pb)"
        progress("link: pb link through sshd on 127.0.0.1:\(ssh.port)")
        let link = try Spawned.start([pb, "link", "--ssh", ssh.words.joined(separator: " "), "--remote-pb", remote, ssh.destination],
                                     output: a.directory + "/link.log", environment: onA)
        defer { link.stop() }

        // Linked once a copy on A reaches B.
        let marker = a.directory + "/marker"
        try write(Array("linked \(getpid())".utf8), to: marker)
        var changeCount = try await copy(marker, pb: pb, environment: onA, thenWaitOn: b, after: 0, timeout: .seconds(30))

        progress("link: 16-byte paste on B of A's copy, and ssh cat of 16 bytes, \(runs) runs each")
        let sixteen = a.directory + "/sixteen"
        var ours: [Duration] = [], theirs: [Duration] = []
        for run in 0..<runs {
            try write((0..<16).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ run) | 0x80 }, to: sixteen)
            changeCount = try await copy(sixteen, pb: pb, environment: onA, thenWaitOn: b, after: changeCount, timeout: .seconds(10))
            let paste = try Spawned.time([pb, "paste", "-t", "public.data"], environment: onB)
            guard paste.status == 0 else { throw BenchError("pb paste on B failed (exit \(paste.status))") }
            ours.append(paste.elapsed)
            let cat = try Spawned.time(ssh.words + [ssh.destination, "cat", sixteen])
            guard cat.status == 0 else { throw BenchError("ssh cat failed (exit \(cat.status))") }
            theirs.append(cat.elapsed)
        }
        let smallOurs = Figure.median(ours), smallTheirs = Figure.median(theirs)
        let smallRatio = Figure.seconds(smallOurs) / Figure.seconds(smallTheirs)

        progress("link: writing \(size >> 20) MiB of random bytes, copying them on A")
        let big = a.directory + "/big"
        guard system("head -c \(size) /dev/urandom > '\(big)'") == 0 else { throw BenchError("cannot write \(big)") }
        changeCount = try await copy(big, pb: pb, environment: onA, thenWaitOn: b, after: changeCount, timeout: .seconds(120))
        var pulled = Duration.seconds(1 << 40), catted = pulled
        for round in 1...rounds {
            progress("link: \(size >> 20) MiB pulled over the link and by ssh cat, round \(round) of \(rounds)")
            let paste = try Spawned.time([pb, "paste", "-t", "public.data"], environment: onB)
            guard paste.status == 0 else { throw BenchError("pb paste of \(size >> 20) MiB on B failed (exit \(paste.status))") }
            pulled = min(pulled, paste.elapsed)
            let cat = try Spawned.time(ssh.words + [ssh.destination, "cat", big])
            guard cat.status == 0 else { throw BenchError("ssh cat of \(size >> 20) MiB failed (exit \(cat.status))") }
            catted = min(catted, cat.elapsed)
        }
        let largeRatio = Figure.seconds(catted) / Figure.seconds(pulled)
        return [
            BenchRow(scenario: small, ours: Figure.milliseconds(smallOurs), baseline: "\(Figure.milliseconds(smallTheirs)) (`ssh HOST cat FILE`)",
                     ratio: smallRatio, goal: "≤ 0.5", met: smallRatio <= 0.5),
            BenchRow(scenario: large, ours: Figure.mebibytesPerSecond(size, in: pulled),
                     baseline: "\(Figure.mebibytesPerSecond(size, in: catted)) (`ssh HOST cat FILE > /dev/null`)",
                     ratio: largeRatio, goal: "≥ 0.9×", met: largeRatio >= 0.9),
        ]
    }

    /// `pb copy FILE` on A, then waits until B's general pasteboard changes past `after`;
    /// returns B's new change count.
    private func copy(_ file: String, pb: String, environment: ChildEnvironment, thenWaitOn b: BenchDaemon, after: Int, timeout: Duration) async throws -> Int {
        guard try Spawned.start([pb, "copy", file], environment: environment).wait() == 0 else { throw BenchError("pb copy on A failed") }
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while clock.now < deadline {
            let count = try await PasteboardConnection.withConnection(socketPath: b.socketPath, clientName: "pasteboard-bench", autoStart: false) {
                try await Pasteboard(connection: $0).changeCount()
            }
            if count > after { return count }
            try await Task.sleep(for: .milliseconds(5))
        }
        throw BenchError("A's copy did not reach B within \(timeout) (see the link's log)")
    }

    private func write(_ bytes: [UInt8], to path: String) throws {
        guard let file = fopen(path, "w") else { throw BenchError("cannot write \(path)") }
        defer { fclose(file) }
        guard fwrite(bytes, 1, bytes.count, file) == bytes.count else { throw BenchError("cannot write \(path)") }
    }
}

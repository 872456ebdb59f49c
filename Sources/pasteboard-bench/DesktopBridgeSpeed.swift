#if canImport(Glibc)
import Glibc
#endif
import Pasteboard
import PasteboardProtocol

/// The desktop bridge's speed (issue 26), with a daemon started with the bench's own display in
/// its environment, so it starts `pasteboard-bridge` itself as users get it:
///
/// - a small paste: `pb paste` of 16 bytes another X client (`xclip -i`) owns, which the bridge
///   imported, against `xclip -o` of the same selection (whole processes, one of each in turn);
/// - a large export: the peer's paste (`xclip -o`, `wl-paste`) of a representation served
///   through the bridge from a `pb copy --lazy` source, against the same paste of the same
///   bytes served by the peer's own copy (`xclip -i`, `wl-copy`): what the paste tool receives
///   at best; with the daemon's and the bridge's peak resident sizes over those pastes.
struct DesktopBridgeSpeed {
    /// Timed runs of each small paste (after five untimed), of which the median is reported.
    let runs: Int
    /// Rounds of the large export and its baseline, alternating; the best of each is reported.
    let rounds: Int
    /// Bytes of the large export.
    let size: Int
    let progress: (String) -> Void

    /// The MIME type of the large representation: plain bytes, which every peer can ask for
    /// by name (`xclip -t`, `wl-paste -t`) and no side converts.
    static let largeTarget = "application/octet-stream"

    private var pb: String { Spawned.ownDirectory + "/pb" }

    // MARK: X11

    /// The X11 rows: the small paste, the large export and the memory of both processes.
    func x11Rows() async throws -> [BenchRow] {
        let server: XServer
        switch XServer.start(requiring: ["xclip"]) {
        case .success(let started): server = started
        case .failure(let reason): return Self.skipped(x11Scenarios, goals: ["≤ 1.0"] + largeGoals(1.0), reason: reason.description)
        }
        defer { server.stop() }
        guard let peer = DesktopPeer.x11(server) else { return Self.skipped(x11Scenarios, goals: ["≤ 1.0"] + largeGoals(1.0), reason: "xclip not installed") }
        let daemon = try await BenchDaemon.start(display: peer.daemonDisplay)
        defer { daemon.stop() }
        let bridge = try BridgeStatusWatch(daemon).bridging()
        progress("desktop bridge, X11: pb paste and xclip -o of 16 bytes xclip -i owns, in turn, \(runs) runs each")
        let small = try await smallPaste(daemon, peer: peer)
        return [small] + (try await largeExport(daemon, bridge: bridge, peer: peer, goal: 1.0))
    }

    private var x11Scenarios: [String] {
        [smallScenario(captured: nil)] + largeScenarios(name: "X11", paste: "xclip -o")
    }

    /// `pb paste` against `xclip -o`, the selection owned by an `xclip -i` since before the first run.
    private func smallPaste(_ daemon: BenchDaemon, peer: DesktopPeer) async throws -> BenchRow {
        let input = daemon.directory + "/sixteen-bytes"
        let expected = "0123456789abcdef"
        try write(expected, to: input)
        let owner = try Spawned.start(
            [Spawned.find("xclip")!, "-selection", "clipboard", "-quiet", "-i", input], environment: peer.environment)
        defer { owner.stop() }
        try BridgeStatusWatch(daemon).clipboard(ownedBy: "desktop")
        let pbEnvironment = ChildEnvironment(setting: ["PASTEBOARD_SOCKET": daemon.socketPath], removing: ["DISPLAY", "WAYLAND_DISPLAY"])
        var paste = TimedCommand(command: [pb, "paste"], environment: pbEnvironment)
        var baseline = TimedCommand(command: peer.pasteCommand("UTF8_STRING"), environment: peer.environment)
        // Both give the bytes xclip holds (checked once, untimed).
        for command in [paste, baseline] {
            let output = try capture(command.command, environment: command.environment, in: daemon)
            guard output == expected else { throw BenchError("\(command.command.joined(separator: " ")) gave '\(output)', not '\(expected)'") }
        }
        let captured = try await isCaptured(daemon)
        for round in 0..<(5 + runs) {
            try paste.run()
            try baseline.run()
            if round == 4 {  // the first five rounds warm up, untimed
                paste.times = []
                baseline.times = []
            }
        }
        let (ours, theirs) = (Figure.median(paste.times), Figure.median(baseline.times))
        let ratio = Figure.seconds(ours) / Figure.seconds(theirs)
        return BenchRow(
            scenario: smallScenario(captured: captured), ours: Figure.milliseconds(ours),
            baseline: "\(Figure.milliseconds(theirs)) (`xclip -o`)", ratio: ratio, goal: "≤ 1.0", met: ratio <= 1.0)
    }

    private func smallScenario(captured: Bool?) -> String {
        let source = switch captured {
        case true?: "the bytes from the bridge's capture at import"
        case false?: "the bytes fetched from xclip at paste"
        case nil: "the bytes from the bridge's capture at import, text ≤ 1 MiB"
        }
        return "Desktop paste: `pb paste` of 16 bytes `xclip -i` owns on Xvfb, imported by the bridge (\(source); median of \(runs))"
    }

    /// The general pasteboard's change count, asked of the daemon.
    private func generalChangeCount(_ daemon: BenchDaemon) async throws -> Int {
        try await PasteboardConnection.withConnection(socketPath: daemon.socketPath, clientName: "pasteboard-bench") {
            try await Pasteboard(connection: $0).changeCount()
        }
    }

    /// Whether the imported item's first representation (the plain text `pb paste` gives) was
    /// captured at import, rather than a promise fetched from the owner at each load.
    private func isCaptured(_ daemon: BenchDaemon) async throws -> Bool {
        let reply = try await PasteboardConnection.withConnection(socketPath: daemon.socketPath, clientName: "pasteboard-bench") {
            try await Pasteboard(connection: $0).contentsReply()
        }
        guard let representation = reply.items.first?.representations.first else { throw BenchError("the bridge imported nothing") }
        return representation.lazy != true
    }

    // MARK: Wayland

    /// The Wayland rows: the large export and the memory of both processes.
    func waylandRows() async throws -> [BenchRow] {
        let scenarios = largeScenarios(name: "Wayland", paste: "wl-paste")
        let server: WaylandServer
        switch WaylandServer.start() {
        case .success(let started): server = started
        case .failure(let reason): return Self.skipped(scenarios, goals: largeGoals(0.8), reason: reason.description)
        }
        defer { server.stop() }
        guard let peer = DesktopPeer.wayland(server) else { return Self.skipped(scenarios, goals: largeGoals(0.8), reason: "wl-clipboard not installed") }
        let daemon = try await BenchDaemon.start(display: peer.daemonDisplay)
        defer { daemon.stop() }
        let bridge = try BridgeStatusWatch(daemon).bridging()
        return try await largeExport(daemon, bridge: bridge, peer: peer, goal: 0.8)
    }

    // MARK: The large export

    private func largeScenarios(name: String, paste: String) -> [String] {
        let mebibytes = size >> 20
        return [
            "Desktop export, \(name): `\(paste) -t \(Self.largeTarget)` of \(mebibytes) MiB from a `pb copy --lazy` source through the bridge (best of \(rounds))",
            "Memory, \(name): daemon's peak resident size serving those pastes",
            "Memory, \(name): bridge's peak resident size serving those pastes",
        ]
    }

    /// The goals of the large export's rows: its ratio, the daemon's and the bridge's peaks.
    private func largeGoals(_ ratio: Double) -> [String] {
        ["≥ \(decimal(ratio, places: 1))×", "≤ 64 MiB", "≤ 64 MiB"]
    }

    /// Rounds alternate: `pb copy --lazy` of the file (the bridge takes the selection) and the
    /// peer's paste through the bridge; then the peer's own copy of the file (its copy replaces
    /// ours, so pb exits) and the same paste from it. The bridge imports the peer's copy as a
    /// promise and fetches nothing of it.
    private func largeExport(_ daemon: BenchDaemon, bridge: Int32, peer: DesktopPeer, goal: Double) async throws -> [BenchRow] {
        let scenarios = largeScenarios(name: peer.name, paste: peer.pasteName)
        let file = daemon.directory + "/large"
        try fill(file, size: size)
        let watch = BridgeStatusWatch(daemon)
        let pbEnvironment = ChildEnvironment(setting: ["PASTEBOARD_SOCKET": daemon.socketPath], removing: ["DISPLAY", "WAYLAND_DISPLAY"])
        let paste = peer.pasteCommand(Self.largeTarget)
        let (daemonMemory, bridgeMemory) = (daemon.memory, ProcessMemory(pid: bridge))
        let before = (daemonMemory.residentBytes, bridgeMemory.residentBytes)
        daemonMemory.resetPeak()
        bridgeMemory.resetPeak()
        var ours = Duration.seconds(1 << 40), theirs = ours
        // The general pasteboard's change count now: the bridge may still take the selection
        // over for an earlier import (the small paste's xclip -i, stopped), which the clipboard
        // status reports as owned by the pasteboard too; only a later change is pb copy's.
        var change = try await generalChangeCount(daemon)
        for round in 1...rounds {
            progress("desktop bridge, \(peer.name), \(size >> 20) MiB, round \(round) of \(rounds): \(peer.pasteName) through the bridge from pb copy --lazy, then from \(peer.copyName)")
            let source = try Spawned.start(
                [pb, "copy", "--lazy", "--rep", "\(Self.largeTarget)=@\(file)"], output: daemon.directory + "/pb-copy.log", environment: pbEnvironment)
            defer { source.stop() }  // ended by then: its items were replaced by the import of the peer's copy
            let previous = change
            change = try watch.clipboard(ownedBy: "pasteboard") { $0 > previous }
            if round == 1 { try check(paste, environment: peer.environment, offers: peer.listCommand, in: daemon) }
            ours = min(ours, try timed(paste, environment: peer.environment))

            let holder = try peer.copy(file, as: Self.largeTarget)
            defer { holder.stop() }
            let exported = change
            change = try watch.clipboard(ownedBy: "desktop") { $0 > exported }
            if round == 1 { try check(paste, environment: peer.environment, offers: peer.listCommand, in: daemon) }
            theirs = min(theirs, try timed(paste, environment: peer.environment))
        }
        let peaks = (daemonMemory.peakResidentBytes, bridgeMemory.peakResidentBytes)
        let ratio = Figure.seconds(theirs) / Figure.seconds(ours)
        return [
            BenchRow(
                scenario: scenarios[0], ours: Figure.gigabytesPerSecond(size, in: ours),
                baseline: "\(Figure.gigabytesPerSecond(size, in: theirs)) (`\(peer.pasteName)` from `\(peer.copyName)`: what it receives at best)",
                ratio: ratio, goal: largeGoals(goal)[0], met: ratio >= goal),
            memoryRow(scenarios[1], before: before.0, peak: peaks.0),
            memoryRow(scenarios[2], before: before.1, peak: peaks.1),
        ]
    }

    private func memoryRow(_ scenario: String, before: Int, peak: Int) -> BenchRow {
        BenchRow(
            scenario: "\(scenario) (\(Figure.mebibytes(before)) before)", ours: Figure.mebibytes(peak),
            baseline: "— (an absolute goal)", ratio: nil, goal: "≤ 64 MiB", met: peak > 0 ? peak <= 64 << 20 : nil)
    }

    /// The time of one whole paste, its output to /dev/null; throws when it fails.
    private func timed(_ command: [String], environment: ChildEnvironment) throws -> Duration {
        var paste = TimedCommand(command: command, environment: environment)
        try paste.run()
        return paste.times[0]
    }

    /// Checks, untimed, that the clipboard offers the target and that a paste gives all
    /// `size` bytes (the timed pastes go to /dev/null).
    private func check(_ paste: [String], environment: ChildEnvironment, offers list: [String], in daemon: BenchDaemon) throws {
        let targets = try capture(list, environment: environment, in: daemon)
        guard targets.split(separator: "\n").contains(Substring(Self.largeTarget)) else {
            throw BenchError("the clipboard does not offer \(Self.largeTarget); \(list.joined(separator: " ")) gave: \(targets)")
        }
        let output = daemon.directory + "/pasted"
        unlink(output)
        defer { unlink(output) }
        let status = try Spawned.start(paste, output: output, environment: environment).wait()
        var info = stat()
        guard status == 0, stat(output, &info) == 0, Int(info.st_size) == size else {
            throw BenchError("\(paste.joined(separator: " ")) gave \(info.st_size) of \(size) bytes (status \(status))")
        }
    }

    // MARK: Files and output

    /// The standard output of `command` (at most 64 KiB), run once untimed; throws when it fails.
    private func capture(_ command: [String], environment: ChildEnvironment?, in daemon: BenchDaemon) throws -> String {
        let output = daemon.directory + "/captured"
        unlink(output)
        defer { unlink(output) }
        let status = try Spawned.start(command, output: output, environment: environment).wait()
        guard status == 0 else { throw BenchError("\(command.joined(separator: " ")) exited with status \(status)") }
        guard let file = fopen(output, "r") else { return "" }
        defer { fclose(file) }
        var bytes = [UInt8](repeating: 0, count: 65536)
        let count = fread(&bytes, 1, bytes.count, file)
        return String(decoding: bytes[..<count], as: UTF8.self)
    }

    private func write(_ text: String, to path: String) throws {
        guard let file = fopen(path, "w") else { throw BenchError("cannot write \(path)") }
        fputs(text, file)
        fclose(file)
    }

    /// Writes `size` bytes (a repeating pattern of every byte value) to `path`.
    private func fill(_ path: String, size: Int) throws {
        guard let file = fopen(path, "w") else { throw BenchError("cannot write \(path)") }
        defer { fclose(file) }
        let chunk = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
        var remaining = size
        while remaining > 0 {
            let count = min(remaining, chunk.count)
            guard fwrite(chunk, 1, count, file) == count else { throw BenchError("cannot write \(path)") }
            remaining -= count
        }
    }

    /// Rows for `scenarios` (with their `goals`) that could not run, saying why.
    private static func skipped(_ scenarios: [String], goals: [String], reason: String) -> [BenchRow] {
        zip(scenarios, goals).map { BenchRow(scenario: $0, ours: "— (\(reason))", baseline: "— (\(reason))", ratio: nil, goal: $1, met: nil) }
    }
}

#if canImport(Glibc)
import Glibc
#endif
import PasteboardSystem

/// The desktop bridge of a bench daemon, seen through its status file (what `pb bridge --json`
/// prints): the bench waits on it until the bridge serves the display, and until the clipboard
/// has the owner a step of a scenario needs, before it times anything.
struct BridgeStatusWatch {
    let file: BridgeStatusFile

    init(_ daemon: BenchDaemon) {
        file = BridgeStatusFile(socketPath: daemon.socketPath)
    }

    /// The pid of the bridge process (the daemon's child) once it bridges; throws after
    /// `seconds` with the last status in the message.
    func bridging(seconds: Int = 15) throws -> Int32 {
        let status = try waitFor(seconds: seconds, what: "the desktop bridge to serve the display") { $0.state == .bridging }
        return status.pid
    }

    /// Waits until the clipboard's owner is `owner` ("pasteboard": the bridge offers the
    /// pasteboard's item; "desktop": another client owns it and its copy was imported) for a
    /// change count that `accepts`; returns that change count.
    @discardableResult
    func clipboard(ownedBy owner: String, seconds: Int = 30, where accepts: (Int) -> Bool = { _ in true }) throws -> Int {
        let status = try waitFor(seconds: seconds, what: "the clipboard to be owned by the \(owner)") { status in
            guard status.state == .bridging, let clipboard = status.selections.first(where: { $0.selection == "clipboard" }) else { return false }
            return clipboard.owner == owner && clipboard.changeCount.map(accepts) == true
        }
        return status.selections.first { $0.selection == "clipboard" }?.changeCount ?? 0
    }

    private func waitFor(seconds: Int, what: String, _ done: (BridgeStatus) -> Bool) throws -> BridgeStatus {
        var last: BridgeStatus?
        for _ in 0..<(seconds * 100) {
            last = try? file.read()
            if let last, done(last) { return last }
            usleep(10_000)
        }
        let state = last.map { "\($0.state.rawValue)\($0.reason.map { " (\($0))" } ?? ""), selections \($0.selections)" } ?? "no status"
        throw BenchError("timed out waiting for \(what); the bridge's status: \(state)")
    }
}

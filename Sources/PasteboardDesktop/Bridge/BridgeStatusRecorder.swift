public import PasteboardSystem
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Keeps the bridge's status as its parts report and writes it to the status file at each
/// change, for `pb bridge`. A write that fails is reported once through `onFailure` and does
/// not stop the bridge: the status is for the user's eyes, the clipboard is what matters.
public final class BridgeStatusRecorder: Sendable {
    private let file: BridgeStatusFile?
    private let status: Mutex<BridgeStatus>
    private let failed = Mutex(false)
    private let onFailure: @Sendable (String) -> Void

    /// A recorder writing to `file` (nil: keeps the status in memory only, for tests).
    public init(file: BridgeStatusFile?, onFailure: @escaping @Sendable (String) -> Void = { _ in }) {
        self.file = file
        self.onFailure = onFailure
        status = Mutex(BridgeStatus(pid: getpid(), state: .waiting, reason: BridgeStatus.startingReason))
    }

    /// The status as it stands.
    public var current: BridgeStatus { status.withLock { $0 } }

    /// Changes the status with `change` and writes it. The write is made under the lock: the
    /// lanes update from several threads, and two writes through the one temporary file must
    /// not interleave (a few hundred bytes into the runtime directory).
    public func update(_ change: (inout BridgeStatus) -> Void) {
        let failure = status.withLock { status -> BridgeStatusFile.Failure? in
            change(&status)
            guard let file else { return nil }
            do throws(BridgeStatusFile.Failure) {
                try file.write(status)
                return nil
            } catch {
                return error
            }
        }
        if let error = failure {
            let first = failed.withLock { failed in
                defer { failed = true }
                return !failed
            }
            if first { onFailure(error.description) }
        }
    }

    /// Records who owns `selection` now.
    public func setOwner(_ owner: String, of selection: DesktopSelection, changeCount: Int?) {
        update { status in
            var entry = BridgeStatus.Selection(selection: selection.rawValue, pasteboard: selection.pasteboardName, owner: owner, changeCount: changeCount)
            if let index = status.selections.firstIndex(where: { $0.selection == selection.rawValue }) {
                entry.settled = status.selections[index].settled
                status.selections[index] = entry
            } else {
                status.selections.append(entry)
            }
        }
    }

    /// Records that `selection`'s importer has brought in what the desktop held when it
    /// connected (see `BridgeStatus.Selection.settled`); `false` when it starts over.
    public func setSettled(_ settled: Bool, of selection: DesktopSelection) {
        update { status in
            if let index = status.selections.firstIndex(where: { $0.selection == selection.rawValue }) {
                status.selections[index].settled = settled
            } else {
                status.selections.append(BridgeStatus.Selection(
                    selection: selection.rawValue, pasteboard: selection.pasteboardName, owner: "none", settled: settled))
            }
        }
    }
}

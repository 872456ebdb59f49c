import Logging
import PasteboardProtocol

/// Content that expires (`write` with `expire`, `pb copy --expire`): cleared at its deadline
/// unless the pasteboard changed meanwhile. The deadline is stored with the content (see
/// `ExpiryDeadline`), so the store arms the timers again when it restores the pasteboards, and
/// clears at once, before anything can read it, the content whose time passed meanwhile.
extension PasteboardStore {
    /// Clears `name` at `deadline`, unless its content changed by then (its change count moved
    /// on from `changeCount`).
    func scheduleExpiry(of name: String, at changeCount: Int, deadline: ExpiryDeadline) {
        let clock = clock
        Task { [weak self] in
            try? await clock.sleep(deadline.millisecondsSinceEpoch)
            await self?.expire(name, at: changeCount, reason: "pasteboard expired")
        }
    }

    /// Clears `name` if it still holds the content written at `changeCount`, logging `reason`.
    private func expire(_ name: String, at changeCount: Int, reason: String) async {
        do {
            let cleared = try await replaceItems(of: name, with: [], ifChangeCount: changeCount)
            guard cleared != changeCount else { return }
            logger.info("\(reason)", metadata: ["pasteboard": "\(name)", "changeCount": "\(cleared)"])
        } catch {
            logger.error("expired pasteboard not cleared", metadata: ["pasteboard": "\(name)", "reason": "\(error.message)"])
        }
    }

    /// After the pasteboards are restored: clears those whose content expired while the daemon
    /// was not running (stored, so it leaves the disk too), and sets the timers of the others
    /// for the time they have left.
    func restoreExpiries() async {
        let expiring = pasteboardsWithExpiry()
        for (name, changeCount, deadline) in expiring {
            if deadline.hasPassed(now: clock.now()) {
                await expire(name, at: changeCount, reason: "pasteboard expired while pasteboardd was not running")
            } else {
                scheduleExpiry(of: name, at: changeCount, deadline: deadline)
                logger.info("pasteboard expires later", metadata: [
                    "pasteboard": "\(name)", "changeCount": "\(changeCount)",
                    "seconds": "\(deadline.remainingMilliseconds(now: clock.now()) / 1000)",
                ])
            }
        }
    }
}

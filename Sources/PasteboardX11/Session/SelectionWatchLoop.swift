/// An `X11SelectionWatch`'s X side, on its thread: watches the selection's owner with XFIXES
/// and reads each new foreign owner's TARGETS and the targets its watch captures. Not Sendable
/// in spirit — it is handed to its thread once and used there only (hence `@unchecked`).
final class SelectionWatchLoop: @unchecked Sendable {
    let watch: X11SelectionWatch
    let connection: X11Connection

    init(watch: X11SelectionWatch, connection: X11Connection) {
        self.watch = watch
        self.connection = connection
    }

    /// Reports the current owner, then every new one, until the connection is cancelled.
    func run(onEvent: @escaping @Sendable (X11SelectionWatch.Event) -> Void) throws(X11Error) {
        let reader = try SelectionReader(connection: connection, timeout: watch.display.ownerTimeout)
        let name = watch.selection
        let atom = try connection.atom(name)
        func consider(_ owner: WindowID) {
            guard owner != .none, owner != reader.window, !watch.windows.contains(owner) else { return }
            do throws(X11Error) {
                if let offer = try read(owner: owner, reader: reader) { onEvent(.offer(offer)) } else { onEvent(.skipped("the owner of \(name) offers nothing we map")) }
            } catch {
                onEvent(.skipped("cannot read the offer of \(name): \(error)"))
            }
        }
        let connection = self.connection
        try connection.watchOwnerChanges(selections: [name], quietPeriod: watch.quietPeriod, onWatching: {
            // An owner from before we started is a copy too; looked at only now that changes
            // are reported, so none falls between the look and the watch.
            do throws(X11Error) {
                consider(try X11Reply.getSelectionOwnerChecked(connection.roundTrip(.getSelectionOwner(atom))))
            } catch {
                onEvent(.skipped("cannot ask for the owner of \(name): \(error)"))
            }
            onEvent(.settled)
            onEvent(.watching)
        }) { change in
            if change.owner == .none {
                onEvent(.ownerLeft)
            } else if change.kind == .setSelectionOwner {
                consider(change.owner)
            }
            return true
        }
    }

    /// The offer of `owner`: its TARGETS, and the targets the watch captures when they fit;
    /// nil when the watch wants none of it.
    private func read(owner: WindowID, reader: SelectionReader) throws(X11Error) -> X11SelectionWatch.Offer? {
        let name = watch.selection
        // The whole offer within one bound: an owner dripping its TARGETS or its text a byte
        // at a time (each within the per-answer timeout) must not keep later copies out.
        let deadline = X11Deadline(after: watch.offerTimeout)
        let offered = try reader.readTargets(selection: name, until: deadline)
        guard let wanted = watch.capture(offered) else { return nil }
        var captured: [String: [UInt8]] = [:]
        let budget = watch.captureBudget
        for target in wanted {
            var bytes: [UInt8] = []
            var overBudget = false
            do throws(X11Error) {
                try reader.read(selection: name, target: target, until: deadline) { chunk in
                    bytes += chunk
                    if bytes.count > budget {
                        overBudget = true
                        throw X11Error.invalidArgument("\(target) is over the capture budget")
                    }
                }
            } catch {
                if overBudget { continue }  // stays a promise
                throw error
            }
            captured[target] = bytes
        }
        return X11SelectionWatch.Offer(owner: owner, targets: offered, captured: captured)
    }
}

import PasteboardDesktopTypes
import PasteboardTypes
import PasteboardX11

/// The importer's X side, on its own thread: watches the selection's owner with XFIXES and
/// reads each new foreign owner's TARGETS and small text. Not Sendable in spirit — it is
/// handed to its thread once and used there only (hence `@unchecked`).
final class OwnerWatcher: @unchecked Sendable {
    let importer: X11ClipboardImporter
    let connection: X11Connection

    init(importer: X11ClipboardImporter, connection: X11Connection) {
        self.importer = importer
        self.connection = connection
    }

    /// Imports the current owner, then every new one, until the connection is cancelled.
    /// `ownerLeft` hears of the selection left without an owner (its window destroyed, its
    /// client gone, or set to None).
    func watch(onEvent: @escaping @Sendable (X11ClipboardImporter.Event) -> Void, offer: (OwnerOffer) -> Void, ownerLeft: () -> Void, settled: () -> Void) throws(X11Error) {
        let reader = try SelectionReader(connection: connection, timeout: importer.display.ownerTimeout)
        let name = importer.selection.x11Name
        let atom = try connection.atom(name)
        func consider(_ owner: WindowID) {
            guard owner != .none, owner != reader.window, !importer.ownWindows.contains(owner) else { return }
            do throws(X11Error) {
                if let made = try read(owner: owner, reader: reader) { offer(made) } else { onEvent(.skipped("the owner of \(name) offers nothing we map")) }
            } catch {
                onEvent(.skipped("cannot read the offer of \(name): \(error)"))
            }
        }
        let connection = self.connection
        try connection.watchOwnerChanges(selections: [name], quietPeriod: importer.debounce, onWatching: {
            // An owner from before we started is a copy too; looked at only now that changes
            // are reported, so none falls between the look and the watch.
            do throws(X11Error) {
                consider(try X11Reply.getSelectionOwnerChecked(connection.roundTrip(.getSelectionOwner(atom))))
            } catch {
                onEvent(.skipped("cannot ask for the owner of \(name): \(error)"))
            }
            settled()
            onEvent(.watching)
        }) { change in
            if change.owner == .none {
                ownerLeft()
            } else if change.kind == .setSelectionOwner {
                consider(change.owner)
            }
            return true
        }
    }

    /// The offer of `owner`: its TARGETS mapped, and its plain text captured when it fits.
    private func read(owner: WindowID, reader: SelectionReader) throws(X11Error) -> OwnerOffer? {
        let name = importer.selection.x11Name
        // The whole offer within one bound: an owner dripping its TARGETS or its text a byte
        // at a time (each within the per-answer timeout) must not keep later copies out.
        let deadline = X11Deadline(after: importer.importTimeout)
        let offered = try reader.readTargets(selection: name, until: deadline)
        let plan = DesktopImportPlan(offer: importer.mapping.representations(forOffered: offered))
        guard !plan.entries.isEmpty else { return nil }
        var captured: [TypeIdentifier: [UInt8]] = [:]
        for representation in plan.captured {
            var bytes: [UInt8] = []
            var overBudget = false
            let budget = importer.captureBudget
            do {
                try reader.read(selection: name, target: representation.target, until: deadline) { chunk in
                    bytes += chunk
                    if bytes.count > budget {
                        overBudget = true
                        throw DesktopImportError.tooLargeToConvert(target: representation.target, limit: budget)
                    }
                }
            } catch {
                if overBudget { continue }  // stays a promise
                throw error
            }
            captured[representation.type] = representation.conversion.apply(to: bytes)
        }
        return OwnerOffer(owner: owner, plan: plan, captured: captured)
    }
}

extension X11Reply {
    /// GetSelectionOwner's reply, with decoding errors as X11Error.
    static func getSelectionOwnerChecked(_ reply: [UInt8]) throws(X11Error) -> WindowID {
        do { return try getSelectionOwner(reply) } catch let error as X11Error { throw error } catch { throw .malformedFromServer("\(error)") }
    }
}

import PasteboardX11
import Synchronization

/// What the CLIPBOARD importer and the clipboard manager share, so that an application handing
/// its copy over at exit (SAVE_TARGETS) fills the item the importer already made from that copy
/// instead of making a second one: one copy, one pasteboard change, one history entry.
///
/// The importer records which owner's offer it put on the pasteboard at which change count.
/// The manager, having read the exiting owner's data, holds it here while the daemon captures
/// the item's promises (`PasteboardConnection.relinquish`); the importer's load handlers then
/// serve the held bytes instead of asking the owner again. One instance per selection, shared
/// by its importer and manager, which must use one connection (the promises are that
/// connection's).
public final class ClipboardHandover: Sendable {
    /// What a load handler finds for its owner and target.
    enum Lookup: Equatable {
        /// The manager saved these bytes (as the owner sent them).
        case saved([UInt8])
        /// The owner's data is being handed over, without this target (over the budget, or not
        /// listed by the application): it leaves with the application.
        case notHandedOver
        /// Nothing is handed over for this owner: fetch from it as usual.
        case none
    }

    private struct State {
        var imported: (owner: WindowID, changeCount: Int)?
        var held: SavedOffer?
    }

    private let state = Mutex(State())

    public init() {}

    /// The importer (or the clipboard manager) put `owner`'s offer on the pasteboard at
    /// `changeCount`. An older change recorded late is ignored: the importer's write and the
    /// manager's can cross (a hand-over that arrives while the importer writes), and the
    /// latest change is the one the desktop gets back when the owner leaves.
    func recordImport(owner: WindowID, changeCount: Int) {
        state.withLock { state in
            guard (state.imported?.changeCount ?? .min) < changeCount else { return }
            state.imported = (owner, changeCount)
        }
    }

    /// The selection's owner left: the change count of the latest import, by the importer or
    /// by the clipboard manager (which imports a hand-over that arrived before the importer
    /// read the owner's offer), whose content the desktop loses now; and the owner is
    /// forgotten. The X server gives a new client's windows ids a gone client had, so the next
    /// application's window may carry the same id: taken for the owner of this import, its
    /// hand-over would count as kept already and be dropped.
    func ownerLeft() -> Int? {
        state.withLock { state in
            defer { state.imported = nil }
            return state.imported?.changeCount
        }
    }

    /// The change count at which `owner`'s offer was imported last, if it was the latest import.
    func importedChangeCount(of owner: WindowID) -> Int? {
        state.withLock { state in
            guard let imported = state.imported, imported.owner == owner else { return nil }
            return imported.changeCount
        }
    }

    /// Holds `offer` for the load handlers of its owner's promises.
    func hold(_ offer: SavedOffer) {
        state.withLock { $0.held = offer }
    }

    /// Lets go of the bytes held for `owner`.
    func release(_ owner: WindowID) {
        state.withLock { state in
            if state.held?.owner == owner { state.held = nil }
        }
    }

    /// What is held for `target` of `owner`.
    func lookup(owner: WindowID, target: String) -> Lookup {
        state.withLock { state in
            guard let held = state.held, held.owner == owner else { return .none }
            return held.bytes(for: target).map { .saved($0) } ?? .notHandedOver
        }
    }
}

/// The clipboard manager's X side, on its session's thread (`X11ClipboardManagerSession`): owns
/// `CLIPBOARD_MANAGER` (ICCCM §2.8), answers TARGETS, TIMESTAMP and SAVE_TARGETS on it, and for
/// SAVE_TARGETS reads the chosen targets from the CLIPBOARD owner before it answers. Not
/// Sendable in spirit — handed to its thread once and used there only (hence `@unchecked`).
final class ManagerSelectionLoop: @unchecked Sendable {
    /// The manager selection, and the selection whose data it saves.
    static let managerSelection = "CLIPBOARD_MANAGER"
    static let clipboard = "CLIPBOARD"

    private struct Atoms {
        let manager, clipboard, saveTargets, targets, timestamp, managerMessage, null, stamp: Atom
    }

    let session: X11ClipboardManagerSession
    let connection: X11Connection
    /// The window that owns CLIPBOARD_MANAGER; registered in `session.windows` while it lives.
    private var window = WindowID.none
    private var atoms: Atoms?
    /// When CLIPBOARD_MANAGER became ours; nil while another manager has it.
    private var acquiredAt: X11Timestamp?
    private var reportedOtherManager = false
    private var onEvent: @Sendable (X11ClipboardManagerSession.Event) -> Void = { _ in }

    init(session: X11ClipboardManagerSession, connection: X11Connection) {
        self.session = session
        self.connection = connection
    }

    /// Takes the duty (or waits for another manager to leave), then answers requests until the
    /// connection is cancelled (throws `.cancelled`) or fails. `keep` has the handed-over data
    /// kept and says whether it was; it may block, for a bounded time.
    func run(onEvent: @escaping @Sendable (X11ClipboardManagerSession.Event) -> Void, keep: (X11ClipboardManagerSession.Handover) -> Bool) throws(X11Error) {
        self.onEvent = onEvent
        let interned = try connection.internAtoms([
            Self.managerSelection, Self.clipboard, "SAVE_TARGETS", "TARGETS", "TIMESTAMP", "MANAGER", "NULL", "PASTEBOARD_MANAGER_TIMESTAMP",
        ])
        let atoms = Atoms(
            manager: interned[0], clipboard: interned[1], saveTargets: interned[2], targets: interned[3], timestamp: interned[4],
            managerMessage: interned[5], null: interned[6], stamp: interned[7])
        self.atoms = atoms
        window = try connection.createWindow()
        session.windows.insert(window)
        defer { session.windows.remove(window) }
        let reader = try SelectionReader(connection: connection, timeout: session.display.ownerTimeout)
        reader.readSize = session.readSize
        // Told when another manager's ownership ends, so the duty is taken then, not fought for.
        let xfixes = try connection.enableXFixes()
        try connection.send(XFixes.selectSelectionInput(majorOpcode: xfixes.majorOpcode, window: window, selection: atoms.manager, mask: .all))
        try takeDutyIfFree()
        let window = window
        while true {
            let event = try connection.nextEvent(deadline: nil, what: "a request to \(Self.managerSelection)") { event in
                switch event {
                case let .selectionRequest(request): request.owner == window
                case let .selectionClear(clear): clear.owner == window
                case let .xfixesSelectionNotify(notify): notify.window == window && notify.selection == atoms.manager
                default: false
                }
            }
            switch event {
            case let .selectionClear(clear) where clear.selection == atoms.manager:
                guard acquiredAt != nil else { break }
                // The server, not the event, says who owns it: the connection drops forged
                // SelectionClears, and one left over from an earlier loss proves nothing either.
                let owner = try X11Reply.getSelectionOwnerChecked(connection.roundTrip(.getSelectionOwner(atoms.manager)))
                guard owner != window else { break }
                acquiredAt = nil
                reportOtherManager("another clipboard manager took \(Self.managerSelection) over; the bridge does without until it leaves")
            case let .xfixesSelectionNotify(notify) where notify.owner == .none && acquiredAt == nil:
                try takeDutyIfFree()
            case let .selectionRequest(request):
                try answer(request, atoms: atoms, reader: reader, keep: keep)
            default:
                break
            }
        }
    }

    /// Takes CLIPBOARD_MANAGER unless another client owns it (reported once: no fight).
    private func takeDutyIfFree() throws(X11Error) {
        guard let atoms else { return }
        let owner = try X11Reply.getSelectionOwnerChecked(connection.roundTrip(.getSelectionOwner(atoms.manager), timeout: session.display.ownerTimeout))
        guard owner == .none || owner == window else {
            return reportOtherManager("another clipboard manager (\(owner)) owns \(Self.managerSelection); the bridge does without until it leaves")
        }
        let time = try connection.serverTime(
            window: window, property: atoms.stamp, timeout: session.display.ownerTimeout,
            what: "the server's time stamp for taking \(Self.managerSelection)")
        try connection.send(.setSelectionOwner(window, selection: atoms.manager, time: time))
        let now = try X11Reply.getSelectionOwnerChecked(connection.roundTrip(.getSelectionOwner(atoms.manager), timeout: session.display.ownerTimeout))
        guard now == window else {
            return reportOtherManager("another clipboard manager (\(now)) took \(Self.managerSelection) first; the bridge does without until it leaves")
        }
        // ICCCM §2.8: a new manager tells the root window's listeners.
        let root = connection.setup.root
        let message = try ClientMessage.manager(root: root, managerAtom: atoms.managerMessage, time: time, selection: atoms.manager, owner: window)
        try connection.send(.sendEvent(destination: root, eventMask: EventMask.structureNotify, event: message.encoded))
        acquiredAt = time
        onEvent(.managing)
    }

    private func reportOtherManager(_ text: String) {
        guard !reportedOtherManager else { return }
        reportedOtherManager = true
        onEvent(.anotherManager(text))
    }

    // MARK: Requests

    private func answer(_ request: X11Event.SelectionRequest, atoms: Atoms, reader: SelectionReader, keep: (X11ClipboardManagerSession.Handover) -> Bool) throws(X11Error) {
        // ICCCM §2.2: an obsolete requestor sends None as the property; use the target then.
        let property = request.property == .none ? request.target : request.property
        func reply(type: Atom, bytes: [UInt8]) throws(X11Error) {
            try connection.sendToRequestor(.changeProperty(window: request.requestor, property: property, type: type, format: 32, data: bytes))
            try connection.notify(request, property: property)
        }
        guard let acquiredAt, request.selection == atoms.manager else { return try connection.notify(request, property: .none) }
        if request.time != currentTime, Int32(bitPattern: request.time &- acquiredAt) < 0 { return try connection.notify(request, property: .none) }
        switch request.target {
        case atoms.targets:
            try reply(type: .atom, bytes: SelectionReplyEncoding.atomList([atoms.targets, atoms.timestamp, atoms.saveTargets]))
        case atoms.timestamp:
            try reply(type: .integer, bytes: SelectionReplyEncoding.timestamp(acquiredAt))
        case atoms.saveTargets:
            // The freedesktop ClipboardManager specification: a side-effect target answered,
            // once everything is read and kept, with an empty NULL property (ICCCM §2.6.3);
            // refused with None. The application exits on either.
            switch try save(request, property: property, atoms: atoms, reader: reader, keep: keep) {
            case .kept: try reply(type: atoms.null, bytes: [])
            case .refused(let reason):
                onEvent(.refused(reason))
                try connection.notify(request, property: .none)
            }
        default:
            try connection.notify(request, property: .none)
        }
    }

    private enum SaveOutcome {
        case kept
        case refused(String)
    }

    /// SAVE_TARGETS: reads the listed targets (or all the owner offers) from the CLIPBOARD owner
    /// within the budget, and has them kept.
    private func save(
        _ request: X11Event.SelectionRequest, property: Atom, atoms: Atoms, reader: SelectionReader,
        keep: (X11ClipboardManagerSession.Handover) -> Bool
    ) throws(X11Error) -> SaveOutcome {
        let timeout = session.display.ownerTimeout
        let list: SaveTargetsList
        do {
            let value = try X11Reply.getProperty(connection.roundTrip(
                .getProperty(window: request.requestor, property: property, longLength: UInt32(SaveTargetsList.maximumTargets), delete: false),
                timeout: timeout))
            list = SaveTargetsList.decode(type: value.type, format: value.format, bytesAfter: value.bytesAfter, data: value.data)
        } catch let error as X11Error {
            if case .request = error { return .refused("cannot read the requestor's SAVE_TARGETS list: \(error)") }
            throw error
        } catch {
            return .refused("cannot read the requestor's SAVE_TARGETS list: \(error)")
        }
        let owner = try X11Reply.getSelectionOwnerChecked(connection.roundTrip(.getSelectionOwner(atoms.clipboard), timeout: timeout))
        guard owner != .none else { return .refused("nothing to save: \(Self.clipboard) has no owner") }
        // The bridge's own ownership serves the pasteboard: its data is kept already.
        if session.windows.contains(owner) { return .kept }
        let offered: [String]
        do throws(X11Error) {
            switch list {
            case .all: offered = try reader.readTargets(selection: Self.clipboard)
            case .listed(let listed): offered = try connection.atomNames(listed)
            case .malformed(let reason): return .refused(reason)
            }
        } catch {
            if case .cancelled = error { throw error }
            return .refused("cannot learn the targets of \(Self.clipboard): \(error)")
        }
        // Each target is bounded by what is left of the budget; one that does not fit is skipped
        // (it goes with the application) and smaller ones after it are still read.
        let total = max(0, session.budget)
        var used = 0
        var saved: [X11ClipboardManagerSession.SavedTarget] = []
        var skipped: [String] = []
        for target in session.choose(offered) {
            let limit = max(0, total - used)
            var bytes: [UInt8] = []
            var overBudget = false
            do throws(X11Error) {
                try reader.read(selection: Self.clipboard, target: target) { chunk in
                    guard bytes.count + chunk.count <= limit else {
                        overBudget = true
                        throw X11Error.invalidArgument("\(target) is over the budget")
                    }
                    bytes += chunk
                }
            } catch {
                switch error {
                case .cancelled: throw error
                case .noOwner, .ownerGone: return .refused("the owner of \(Self.clipboard) went away while its data was saved")
                default:
                    let reason = overBudget ? "over the \(limit) bytes left of the \(total)-byte budget" : error.description
                    skipped.append("\(target): \(reason)")
                    onEvent(.skipped("\(target) not saved: \(reason)"))
                    continue
                }
            }
            used = min(total, used + bytes.count)
            saved.append(X11ClipboardManagerSession.SavedTarget(target: target, bytes: bytes))
        }
        // Read from one owner only: another copy meanwhile would mix two contents.
        let after = try X11Reply.getSelectionOwnerChecked(connection.roundTrip(.getSelectionOwner(atoms.clipboard), timeout: timeout))
        guard after == owner else { return .refused("\(Self.clipboard) changed owner while its data was saved") }
        guard !saved.isEmpty else {
            return .refused("nothing of \(Self.clipboard) could be saved" + (skipped.isEmpty ? " (it offers nothing the bridge maps)" : ": " + skipped.joined(separator: "; ")))
        }
        let handover = X11ClipboardManagerSession.Handover(owner: owner, offered: offered, saved: saved, skipped: skipped)
        return keep(handover) ? .kept : .refused("the pasteboard did not keep the saved data")
    }
}

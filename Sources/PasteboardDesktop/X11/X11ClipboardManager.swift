public import Pasteboard
public import PasteboardDesktopTypes
public import PasteboardTypes
public import PasteboardX11

/// The X11 clipboard-manager duty (the freedesktop ClipboardManager specification): the bridge
/// owns `CLIPBOARD_MANAGER`, and an application that quits while it owns CLIPBOARD (GTK and Qt
/// do this at exit) converts it to `SAVE_TARGETS`; the manager then reads the listed targets
/// (or, with no list, every target the owner offers) from the CLIPBOARD owner, keeps them on
/// `general`, and only then answers — an empty property when kept, None when not — so the
/// application exits with its copy safe.
///
/// How the data is kept (see `HandoverKeeping`): the importer has already put the copy on the
/// pasteboard as one item, its text captured and the rest promised, and the daemon recorded it
/// in the history. The saved bytes settle those promises through the daemon's capture of a
/// relinquishing source (`PasteboardConnection.relinquish`, the importer's load handlers serving
/// the saved bytes from `handover`): the same item and the same history entry, now holding
/// every byte, durable — one copy, one change, one history entry. Only when the pasteboard no
/// longer holds that item (the copy was never imported, or something newer came) is the saved
/// data put on it as a new eager item, through `echo` and `recent` as the importer writes.
/// Hence the manager must run on the importer's connection, with the importer's `handover`,
/// `echo`, `recent` and `ownWindows`.
///
/// Bounds: at most `budget` bytes are read in all (64 MiB by default, the daemon's own capture
/// budget; a representation that does not fit is skipped and goes with the application), each
/// answer of the owner within `display.ownerTimeout`, and the pasteboard write within
/// `keepTimeout`; the application waits for the answer meanwhile, as the specification asks.
///
/// Another clipboard manager (Klipper, xfce4-clipman, GPaste, CopyQ) owning
/// `CLIPBOARD_MANAGER` is reported once and left alone: the bridge does without the duty and
/// takes it only if that manager leaves. The X side (`X11ClipboardManagerSession`) runs on a
/// connection and thread of its own in PasteboardX11.
public struct X11ClipboardManager: DesktopLane {
    /// What the manager did, for a log line or a test to wait on.
    public enum Event: Sendable, Equatable {
        /// The bridge owns `CLIPBOARD_MANAGER`.
        case managing
        /// Another clipboard manager owns it: the bridge does without (reported once).
        case anotherManager(String)
        /// An application's data was kept at its exit: the change count holding it, the saved
        /// types in the owner's order, their bytes, and how they were kept.
        case saved(changeCount: Int, types: [TypeIdentifier], byteCount: Int, kept: HandoverKeeping)
        /// A target was not saved (over the budget, refused by the owner, ...).
        case skipped(String)
        /// A SAVE_TARGETS request was refused (answered None), and why.
        case refused(String)
    }

    public var display: X11Display
    /// The type mapping, following the daemon's registry (shared by the bridge's lanes).
    public let mappings: FollowedTypeMapping
    /// The mapping as it is now.
    public var mapping: DesktopTypeMapping { mappings.current }
    public var ownWindows: DesktopOwnWindows
    public var echo: BridgeEcho
    public var recent: RecentContent
    public var handover: ClipboardHandover
    /// The most bytes read from one exiting application (see `HandoverBudget`).
    public var budget = HandoverBudget.defaultTotal
    /// The bounded wait for the pasteboard to keep the saved data before the application is
    /// answered (refused after it).
    public var keepTimeout: Duration = .seconds(30)

    /// A manager sharing `ownWindows`, `echo`, `recent` and `handover` with the CLIPBOARD importer.
    public init(
        display: X11Display, mappings: FollowedTypeMapping, ownWindows: DesktopOwnWindows, echo: BridgeEcho, recent: RecentContent,
        handover: ClipboardHandover
    ) {
        self.display = display
        self.mappings = mappings
        self.ownWindows = ownWindows
        self.echo = echo
        self.recent = recent
        self.handover = handover
    }

    /// Serves `CLIPBOARD_MANAGER` and keeps what applications hand over on `general` through
    /// `connection` (the importer's), until the task is cancelled (returns) or the X connection
    /// fails (throws). The X side is PasteboardX11's `X11ClipboardManagerSession`; this is the
    /// policy: which targets are worth saving (the type mapping), the budget, how data is kept.
    public func run(on connection: PasteboardConnection, onEvent: @escaping @Sendable (Event) -> Void = { _ in }) async throws {
        let mappings = mappings
        let session = X11ClipboardManagerSession(
            display: display, windows: ownWindows, budget: budget, readSize: X11TargetFetch.readSize, keepTimeout: keepTimeout
        ) { offered in
            mappings.current.representations(forOffered: offered).representations.map(\.target)
        }
        let board = Pasteboard(name: DesktopSelection.clipboard.pasteboardName, connection: connection)
        do throws(X11Error) {
            try await session.run(onEvent: { event in onEvent(Event(event)) }) { handover in
                guard let offer = SavedOffer(handover, mapping: mappings.current) else { return false }
                return await keep(offer, board: board, connection: connection, onEvent: onEvent)
            }
        } catch {
            throw DesktopImportError.fetchFailed(
                selection: X11ClipboardManagerSession.managerSelection, target: "SAVE_TARGETS", reason: error.description)
        }
    }

    /// Puts `offer` on the pasteboard (see the type's comment); whether it is kept.
    private func keep(_ offer: SavedOffer, board: Pasteboard, connection: PasteboardConnection, onEvent: @Sendable (Event) -> Void) async -> Bool {
        do {
            let contents = try await board.contents()
            let lazy = contents.items.flatMap { $0.representations.filter(\.isLazy).map(\.type) }
            let decision = HandoverKeeping.decide(
                importedChangeCount: handover.importedChangeCount(of: offer.owner), currentChangeCount: contents.changeCount,
                lazy: lazy, saved: offer.types)
            switch decision {
            case .alreadyKept:
                onEvent(.saved(changeCount: contents.changeCount, types: offer.types, byteCount: offer.byteCount, kept: .alreadyKept))
                return true
            case .settlePromises:
                handover.hold(offer)
                defer { handover.release(offer.owner) }
                try await connection.relinquish()
                let after = try await board.contents()
                let stillLazy = after.items.flatMap { $0.representations.filter(\.isLazy).map(\.type) }
                if after.changeCount == contents.changeCount, !offer.types.contains(where: stillLazy.contains) {
                    // Offered to the desktop again once the application is gone, with the text.
                    await echo.markKept(offer.types, of: after.changeCount)
                    onEvent(.saved(changeCount: after.changeCount, types: offer.types, byteCount: offer.byteCount, kept: .settlePromises))
                    return true
                }
                // The promises were not this connection's (the importer runs elsewhere) or the
                // pasteboard changed meanwhile: the data is not lost, it becomes a new item.
                return try await putNewItem(offer, board: board, onEvent: onEvent)
            case .newItem:
                return try await putNewItem(offer, board: board, onEvent: onEvent)
            }
        } catch {
            onEvent(.refused("the pasteboard did not keep the saved data: \(error)"))
            return false
        }
    }

    /// The saved data as a new eager item, written as the importer writes (so neither the
    /// exporter nor the importer takes it for a new desktop copy).
    private func putNewItem(_ offer: SavedOffer, board: Pasteboard, onEvent: @Sendable (Event) -> Void) async throws -> Bool {
        let (provider, fingerprint) = offer.item()
        await echo.beginImport()
        let changeCount: Int
        do {
            changeCount = try await board.setItems([provider])
        } catch {
            await echo.endImport(changeCount: nil)
            throw error
        }
        await echo.endImport(changeCount: changeCount, kept: offer.types)
        recent.remember(fingerprint)
        handover.recordImport(owner: offer.owner, changeCount: changeCount)
        onEvent(.saved(changeCount: changeCount, types: offer.types, byteCount: offer.byteCount, kept: .newItem))
        return true
    }
}

extension X11ClipboardManager.Event {
    /// The session's event as the manager's.
    init(_ event: X11ClipboardManagerSession.Event) {
        switch event {
        case .managing: self = .managing
        case .anotherManager(let text): self = .anotherManager(text)
        case .skipped(let text): self = .skipped(text)
        case .refused(let text): self = .refused(text)
        }
    }
}

import Pasteboard
import PasteboardTypes

/// Puts one desktop copy on its pasteboard as the bridge's own write, the step every importer
/// (X11, Wayland) ends with: a repeat of the content imported last (a clipboard manager taking
/// the selection over) is skipped, and the write is bracketed with the selection's `BridgeEcho`
/// so the exporter of the same selection does not take the desktop selection back for it.
enum DesktopImportCommit {
    /// How the write ended.
    enum Outcome: Sendable, Equatable {
        /// The item is on the pasteboard at this change count.
        case imported(changeCount: Int)
        /// The same content as the last import: nothing written.
        case repeated
        /// The daemon refused the write (the reason, for the importer's event).
        case refused(String)
        /// The task was cancelled during the write.
        case cancelled
    }

    /// Writes `provider` to `board` unless its content (its types and `captured` bytes) repeats
    /// the last import recorded in `recent`.
    static func put(
        _ provider: ItemProvider, captured: [TypeIdentifier: [UInt8]], on board: Pasteboard, echo: BridgeEcho, recent: RecentContent
    ) async -> Outcome {
        let fingerprint = ContentFingerprint(types: provider.registeredTypes, captured: captured)
        if recent.isRepeat(fingerprint) { return .repeated }
        await echo.beginImport()
        do {
            let changeCount = try await board.setItems([provider])
            await echo.endImport(changeCount: changeCount, kept: provider.registeredTypes.filter { captured[$0] != nil })
            recent.remember(fingerprint)
            return .imported(changeCount: changeCount)
        } catch is CancellationError {
            await echo.endImport(changeCount: nil)
            return .cancelled
        } catch {
            await echo.endImport(changeCount: nil)
            return .refused("\(error)")
        }
    }

    /// The repeat's reason, as importers report it.
    static let repeatedReason = "the same content as the last copy (a clipboard manager taking it over)"
}

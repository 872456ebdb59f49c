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
    /// the last import recorded in `recent`, and reports the outcome as the importer's event:
    /// `imported`, or `skipped` with the reason. An import is handed to `record` before it is
    /// reported, so whoever hears the event (a test that then ends the owner) finds it
    /// recorded. Returns the change count of an import (nil when skipped); throws
    /// `CancellationError` when the task was cancelled during the write.
    static func put<Event: ImporterEvent>(
        _ provider: ItemProvider, captured: [TypeIdentifier: [UInt8]], on board: Pasteboard, echo: BridgeEcho, recent: RecentContent,
        record: (_ changeCount: Int) -> Void = { _ in }, onEvent: (Event) -> Void
    ) async throws -> Int? {
        switch await write(provider, captured: captured, on: board, echo: echo, recent: recent) {
        case .imported(let changeCount):
            record(changeCount)
            onEvent(.imported(changeCount: changeCount, types: provider.registeredTypes, captured: captured.keys.sorted { $0.rawValue < $1.rawValue }))
            return changeCount
        case .repeated:
            onEvent(.skipped(repeatedReason))
        case .refused(let reason):
            onEvent(.skipped("the pasteboard refused the copy: \(reason)"))
        case .cancelled:
            throw CancellationError()
        }
        return nil
    }

    /// Writes `provider` to `board` unless its content repeats the last import.
    static func write(
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

/// What the X11 and Wayland importers both report about a desktop copy (each importer's
/// `Event` has these cases, and more of its own).
protocol ImporterEvent: Sendable {
    /// The copy is on the pasteboard at `changeCount`, offering `types`, of which `captured` were read at once.
    static func imported(changeCount: Int, types: [TypeIdentifier], captured: [TypeIdentifier]) -> Self
    /// The copy was not imported, for `reason`.
    static func skipped(_ reason: String) -> Self
}

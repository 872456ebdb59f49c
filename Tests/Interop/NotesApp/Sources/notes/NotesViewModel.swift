import Pasteboard
import PasteboardTypes

/// The notes app's pasteboard code, as a UI app's view model holds it: main-actor state that
/// the library's progress and observe closures update directly (no `@Sendable`, no hops), and
/// every call made from the main actor.
@MainActor
final class NotesViewModel {
    /// The note last pasted or dropped.
    private(set) var note: Note?
    /// The type the daemon offered for that note: the app's own, or text it fell back to.
    private(set) var receivedType: TypeIdentifier?
    /// The last progress of a paste or drop, as a view shows it ("57/57").
    private(set) var progressText = "none"
    /// How many progress reports reached the view model.
    private(set) var progressReports = 0
    /// What a drag source heard, in order.
    private(set) var dragEvents: [String] = []
    /// How the last drag ended.
    private(set) var lastOutcome: DragEvent?
    /// What a copy's live source did last.
    private(set) var copyStatus = "not copied"

    /// Connects as the notes app, declaring its type (the daemon then knows its MIME type and
    /// that it is JSON, for `pb` and every other client).
    private func connected<Result: Sendable>(_ body: (PasteboardConnection) async throws -> Result) async throws -> Result {
        try await PasteboardConnection.withConnection(clientName: "notes", declaring: [Note.declaration], body)
    }

    /// An item offering every representation of `note`, each produced only when someone loads it.
    private func item(for note: Note) -> ItemProvider {
        var item = ItemProvider(suggestedName: "\(note.title).note")
        item.register(note)
        return item
    }

    private func record(_ progress: LoadProgress) {
        progressText = progress.description
        progressReports += 1
    }

    /// Copies `note` to the general pasteboard and serves it until another copy replaces it or
    /// `until` returns (then the daemon keeps what it can of it), across daemon restarts.
    func copy(_ note: Note, until stop: @escaping @Sendable () async -> Void) async throws -> LiveSource.Outcome {
        var source = LiveSource(items: [item(for: note)], clientName: "notes")
        source.declaredTypes = [Note.declaration]
        // LiveSource's closures are @Sendable: its events reach the view model by a hop.
        return try await source.run(until: stop, onEvent: { event in
            Task { @MainActor in self.sourceEvent(event) }
        })
    }

    private func sourceEvent(_ event: LiveSource.Event) {
        switch event {
        case .copied(let changeCount, let reconnected):
            copyStatus = reconnected ? "copied again (change \(changeCount))" : "copied (change \(changeCount))"
        case .connectionLost(let reason):
            copyStatus = "connection lost: \(reason)"
        case .retrying(let delay, _):
            copyStatus = "reconnecting in \(delay)"
        }
        Output.status(copyStatus)
    }

    /// Pastes the general pasteboard's first item as a note: the app's own type when offered,
    /// else plain text (Note's proxy representation turns any text into a note).
    func paste() async throws {
        try await connected { connection in
            let pasteboard = Pasteboard(connection: connection)
            let items = try await pasteboard.items()
            guard let first = items.first else { throw NotesError.nothingToPaste }
            receivedType = first.representation(accepting: Note.importableContentTypes)?.type
            note = try await pasteboard.load(Note.self) { progress in self.record(progress) }
        }
    }

    /// Lifts `note` into a drag session (copy or move) and follows it to its end.
    func drag(_ note: Note) async throws {
        try await connected { connection in
            let session = try await DragSession.begin(with: [item(for: note)], allowing: [.copy, .move], on: connection)
            Output.status("drag session \(session.id): \(note.title)")
            lastOutcome = try await session.outcome { event in
                self.dragEvents.append(event.description)
            }
        }
    }

    /// Drops the current drag session as a copy, loads its first item as a note (refusing a
    /// session that offers nothing a note can be made from), and finishes the drop.
    func drop() async throws {
        try await connected { connection in
            let found = try await DropSession.current(on: connection)
            guard found.canLoad(Note.self) else {
                _ = try await found.perform(.forbidden)
                throw NotesError.notANote(types: found.items.first?.types ?? [])
            }
            guard let drop = try await found.perform(.copy) else { throw NotesError.dropRefused }
            receivedType = drop.items.first?.representation(accepting: Note.importableContentTypes)?.type
            do {
                note = try await drop.load(Note.self, item: 0) { progress in self.record(progress) }
            } catch {
                try? await drop.finish(success: false, message: "notes could not load the note: \(error)")
                throw error
            }
            try await drop.finish()
        }
    }
}

/// Why a notes command failed.
enum NotesError: Error, CustomStringConvertible {
    case nothingToPaste
    case notANote(types: [TypeIdentifier])
    case dropRefused

    var description: String {
        switch self {
        case .nothingToPaste: "the pasteboard is empty"
        case .notANote(let types): "the drag offers no note and no text (\(types.map(\.rawValue).joined(separator: ", ")))"
        case .dropRefused: "the daemon did not let the drop happen"
        }
    }
}

import Pasteboard

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

    /// The name the app connects with, and names in the declaration file it installs.
    nonisolated static let app = "notes"

    /// Connects as the notes app, declaring its type (the daemon then knows its MIME type and
    /// that it is JSON, for `pb` and every other client).
    private func connected<Result: Sendable>(_ body: (PasteboardConnection) async throws -> Result) async throws -> Result {
        try await PasteboardConnection.withConnection(clientName: Self.app, declaring: [Note.declaration], body)
    }

    /// An item offering every representation of `note`, each produced only when someone loads it.
    private func item(for note: Note) -> ItemProvider {
        var item = ItemProvider(suggestedName: "\(note.title).note")
        item.register(note)
        return item
    }

    /// Whether a job of the main actor's own is half done (see `busyJob`).
    private var inJob = false
    /// Progress reports that arrived while the main actor was inside another job: a closure
    /// run off the main actor, at the same time as it (a data race the compiler cannot see).
    private(set) var reportsInsideAJob = 0

    /// Work of the window's own that holds the main actor for `milliseconds`.
    func busyJob(milliseconds: Int) {
        inJob = true
        let end = ContinuousClock.now + .milliseconds(milliseconds)
        while ContinuousClock.now < end {}
        inJob = false
    }

    private func record(_ progress: LoadProgress) {
        // The library promises progress on the caller's actor: a broken promise stops the app here.
        MainActor.assertIsolated("a progress report off the main actor")
        if inJob { reportsInsideAJob += 1 }
        progressText = progress.description
        progressReports += 1
    }

    /// Copies `note` to the general pasteboard and serves it until another copy replaces it or
    /// SIGINT or SIGTERM arrives (then the daemon keeps what it can of it), across daemon restarts.
    func copy(_ note: Note) async throws -> LiveSource.Outcome {
        var source = LiveSource(items: [item(for: note)], clientName: Self.app)
        source.declaredTypes = [Note.declaration]
        // The events run on the main actor: the view model's state is updated directly.
        return try await source.runUntilReplacedOrInterrupted { event in self.sourceEvent(event) }
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
            guard try await !pasteboard.items().isEmpty else { throw NotesError.nothingToPaste }
            let (note, representation) = try await pasteboard.loadWithRepresentation(Note.self) { progress in self.record(progress) }
            self.note = note
            receivedType = representation.type
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
            // The drop finishes by the closure's outcome: a thrown error tells the source it failed.
            let loaded = try await found.perform(.copy) { drop in
                try await drop.loadWithRepresentation(Note.self, item: 0) { progress in self.record(progress) }
            }
            guard let (note, representation) = loaded else { throw NotesError.dropRefused }
            self.note = note
            receivedType = representation.type
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

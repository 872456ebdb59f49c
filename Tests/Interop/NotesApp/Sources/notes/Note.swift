import Foundation
import Pasteboard

/// A note: a title and a body. On a pasteboard it is, best first, the app's own JSON type
/// (`com.example.note`), a PNG card (for image editors and chat apps) and plain text (for
/// terminals and editors, and the way back in: text that anyone copied becomes a note).
struct Note: Codable, Equatable, Transferable {
    var title: String
    var body: String

    static var transferRepresentations: [TransferRepresentation<Note>] {
        [
            .codable(contentType: .note),
            .data(contentType: .png, exporting: { NoteCard.png(for: $0) }),
            .proxy(exporting: { $0.text }, importing: { Note(text: $0) }),
        ]
    }

    /// The title on the first line, the body after it: what `pb paste -t text` prints.
    var text: String { body.isEmpty ? title : "\(title)\n\(body)" }

    init(title: String, body: String) {
        self.title = title
        self.body = body
    }

    /// A note from text: its first line is the title, the rest the body.
    init(text: String) {
        let lines = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
        title = lines.first.map(String.init) ?? ""
        body = lines.count > 1 ? String(lines[1]).trimmingCharacters(in: .newlines) : ""
    }
}

extension TypeIdentifier {
    /// The notes app's own type, declared to the daemon when the app connects.
    static let note: TypeIdentifier = "com.example.note"
}

extension Note {
    /// The declaration of `com.example.note`: JSON, so anything that reads JSON may take a note,
    /// with a MIME type of its own (`pb paste -t application/vnd.example.note+json` names it).
    ///
    /// Version 2 of the app (run with `NOTES_VERSION=2`, as after an upgrade) also declares the
    /// filename extension `.note`.
    static let declaration: TypeDeclaration = {
        var declaration = TypeDeclaration(
            identifier: .note, conformsTo: [.json], mimeTypes: ["application/vnd.example.note+json"],
            description: "A note of the example notes app: its title and body (JSON)"
        )
        if ProcessInfo.processInfo.environment["NOTES_VERSION"] == "2" { declaration.filenameExtensions = ["note"] }
        return declaration
    }()
}

import Foundation
import Pasteboard
import PasteboardTypes
import Synchronization
import Testing

/// A note with a JSON form, a plain-text form (via String) and an export-only raw-bytes form.
struct Note: Codable, Equatable, Transferable {
    static let noteType: TypeIdentifier = "com.example.note"
    /// Counts calls of the raw-bytes exporter, to check that exports are lazy.
    static let rawExports = Atomic<Int>(0)

    var title: String
    var body: String

    static var transferRepresentations: [TransferRepresentation<Note>] {
        [
            .codable(contentType: noteType),
            .proxy(exporting: { $0.title }, importing: { Note(title: $0, body: "") }),
            .data(contentType: .utf8PlainText, exporting: { Data("\($0.title)\n\($0.body)".utf8) }),  // duplicate type: dropped
            .data(contentType: .data, exporting: { note in
                rawExports.add(1, ordering: .relaxed)
                return Data(note.body.utf8)
            }),
        ]
    }
}

/// What SwiftUI's `.dropDestination` commonly takes: one of several kinds of dropped content.
enum DropItem: Transferable, Equatable {
    case text(String), url(URL), image(Data)

    static var transferRepresentations: [TransferRepresentation<DropItem>] {
        [
            .proxy(importing: { DropItem.url($0) }),  // before String, so URLs stay URLs
            .proxy(importing: { DropItem.text($0) }),
            .data(contentType: .image, importing: { .image($0) }),
        ]
    }
}

extension ExportedRepresentation {
    /// The exported bytes, failing the test if this is a file representation.
    func bytes(sourceLocation: SourceLocation = #_sourceLocation) async throws -> Data {
        guard case .data(let export) = kind else {
            Issue.record("\(contentType) is a file representation", sourceLocation: sourceLocation)
            return Data()
        }
        return try await export()
    }
}

/// Runs `body` and returns the TransferError it throws, failing the test if it throws nothing or something else.
func transferError(
    sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> some Any
) async -> TransferError? {
    do {
        let value = try await body()
        Issue.record("expected a TransferError, got \(value)", sourceLocation: sourceLocation)
    } catch let error as TransferError {
        return error
    } catch {
        Issue.record("expected a TransferError, got \(error)", sourceLocation: sourceLocation)
    }
    return nil
}

import Foundation
import Pasteboard

// The names the Swift blocks of README.md and the man pages take as given: an app's own value
// and functions (`note`, `renderCard(for:)`, `deleteOriginal(_:)`); the `Note` type itself is
// declared by a README block. ReadmeSnippetTests compiles each block against these, never runs
// it. A block that needs a name nobody declares here fails to compile: declare it here when
// the README means it as the reader's own (a value, an app function), not when it names
// library API.

/// A note the app has (the README's `Note`).
let note = Note(title: "Groceries", body: "milk, bread")

/// Renders a note as a PNG card: the app's own drawing code.
func renderCard(for note: Note) async throws -> [UInt8] { [137, 80, 78, 71, 13, 10, 26, 10] }

/// Deletes the app's original after a finished move.
func deleteOriginal(_ note: Note) throws {}

import Foundation
import Pasteboard
import PasteboardTypes

// The names the Swift blocks of README.md and the man pages take as given: an app's own data
// (`png`, `note`, `Photo`), its type declaration, its list of photos, and what the earlier
// blocks set up (`connection`, `item`). ReadmeSnippetTests compiles each block against these,
// never runs it, so values that cannot be made without a daemon stop the program if reached.
// A block that needs a name nobody declares here fails to compile: declare it here when the
// README means it as the reader's own (an app's type, a value), not when it names library API.

/// The bytes of a PNG the app has.
let png: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10]

/// The app's own type, declared to the daemon at connect.
let myTypeDeclaration = TypeDeclaration(identifier: "com.example.myapp.note", conformsTo: [.json])

/// A value of a Transferable type of the app's.
let note = SnippetNote(text: "Remember the milk")

/// A Transferable type of the app's (named so that a block may declare its own `Note`).
struct SnippetNote: Codable, Transferable {
    var text: String
    static var transferRepresentations: [TransferRepresentation<SnippetNote>] {
        [.codable(contentType: "com.example.myapp.note"), .proxy(exporting: { $0.text })]
    }
}

/// A photo the app shows in a list: made from PNG data.
struct Photo: Transferable {
    var png: Data
    static var transferRepresentations: [TransferRepresentation<Photo>] {
        [.data(contentType: .png, exporting: { $0.png }, importing: { Photo(png: $0) })]
    }
}

/// The app's list of photos, which shows a placeholder while a drop loads.
struct PhotoList: DropPlaceholderHost {
    func insertPlaceholder(titled title: String, at index: Int?) async throws -> String { title }
    func commitPlaceholder(_ id: String, with entry: Photo) async throws -> Int { 0 }
    func deletePlaceholder(_ id: String) async {}
}

let myList = PhotoList()

/// Deletes the app's original after a finished move.
func deleteOriginal() throws {}

/// The connection an earlier block opened (`withConnection`'s closure parameter).
var connection: PasteboardConnection { fatalError("README snippets are compiled, not run") }

/// The item an earlier block made.
var item: ItemProvider { fatalError("README snippets are compiled, not run") }

import Foundation
import Pasteboard

/// A notes app's declared type, at version 1 and upgraded (another MIME type), for the tests of
/// what follows apps' declarations (the desktop bridge on X11 and Wayland).
enum NoteType {
    static let v1 = TypeDeclaration(identifier: "com.example.note", conformsTo: [.json], mimeTypes: ["application/vnd.example.note+json"])
    static var v2: TypeDeclaration {
        var note = v1
        note.mimeTypes = ["application/vnd.example.note.v2+json"]
        return note
    }
}

extension IntegrationTestCase {
    /// Connects to this test's daemon as the notes app declaring `note`, and copies `bytes` of
    /// that type when given.
    func declareNote(_ note: TypeDeclaration, copying bytes: [UInt8]? = nil) async throws {
        try await PasteboardConnection.withConnection(socketPath: sandbox.socketPath, clientName: "notes", declaring: [note], autoStart: false) { connection in
            guard let bytes else { return }
            var item = ItemProvider()
            item.registerData(bytes, for: note.identifier)
            try await Pasteboard(connection: connection).setItems([item])
        }
    }
}

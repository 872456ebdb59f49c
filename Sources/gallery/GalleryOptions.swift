import ArgumentParser
import GalleryModel
import Pasteboard

/// The option every gallery subcommand shares: which gallery file.
struct GalleryOptions: ParsableArguments {
    @Option(name: .customLong("file"), help: ArgumentHelp("The gallery file.", valueName: "path"), completion: .file())
    var path: String = "gallery.json"

    /// The gallery file.
    var gallery: GalleryFile { GalleryFile(path: path) }

    /// The application id gallery processes share (restricted sessions and local contexts).
    static let app = "com.example.gallery"

    /// Connects to pasteboardd as the gallery app, declaring its image type.
    func withConnection<Result: Sendable>(_ body: (PasteboardConnection) async throws -> Result) async throws -> Result {
        try await PasteboardConnection.withConnection(clientName: "gallery", app: Self.app, declaring: GalleryTypes.declarations, body)
    }
}

import ArgumentParser
import GalleryModel
import Pasteboard
import PasteboardCLI

/// `gallery trash`: a drop target that deletes images dragged from a gallery.
struct Trash: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trash",
        abstract: "A trash can: drop the current (or a named) gallery drag here to delete its images.",
        discussion: """
            The trash accepts only drags from a gallery and performs a move, so the source \
            gallery removes the images once the drop finished. Any other drag, or one that does \
            not allow move, is forbidden and stays in flight.
            """
    )

    @OptionGroup var options: GalleryOptions

    @Option(name: .customLong("session"), parsing: .unconditional, help: ArgumentHelp("The session's id (default: the current session).", valueName: "id"))
    var session: Int?

    func validate() throws {
        if let session, session < 1 { throw ValidationError("--session must be 1 or more (session ids count from 1), not \(session)") }
    }

    func run() async throws {
        let session = session
        try await options.withConnection { connection in
            let found = try await DropSession.find(session, on: connection)
            guard let context = GalleryDragContext(found.localContext) else {
                _ = try await found.perform(.forbidden)
                throw CLIError.failure("the trash accepts only drags from a gallery; drag session \(found.id) comes from \(found.sourceApp): drop forbidden")
            }
            guard found.allowedOperations.contains(.move) else {
                _ = try await found.perform(.forbidden)
                throw CLIError.failure("drag session \(found.id) allows only copy, so its images cannot be trashed: drop forbidden")
            }
            guard let drop = try await found.perform(.move) else {
                throw CLIError.failure("drag session \(found.id) was not dropped")
            }
            try await drop.finish()
            Output.printError("gallery: trashed \(context.ids.count) image\(context.ids.count == 1 ? "" : "s") of \(context.file)")
        }
    }
}

import ArgumentParser
import CPasteboardSystem
import PasteboardCLI
import PasteboardSystem

/// `gallery`: the seeds' Image Gallery as a command-line app. Images live in a gallery file;
/// they are dragged out to other processes and dropped in from them through pasteboardd.
@main
struct GalleryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gallery",
        abstract: "An image gallery that drags and drops images through pasteboardd.",
        discussion: """
            A gallery file (JSON) lists PNG images in order: title, where each came from, aspect \
            ratio, and the image data, stored in NAME.images/ beside the file. Several gallery \
            processes may work on one file at once; every change is made under a lock and \
            written atomically.

            Exit status: 0 success, 1 failure (or a drag that was not dropped), 2 usage error, \
            3 daemon unreachable (or its socket another user's), 130 interrupted.
            """,
        version: PasteboardRelease.version,
        subcommands: [Add.self, ListImages.self, Move.self, DragImages.self, DropImages.self, Trash.self]
    )

    /// Synchronous, as pb's: the work runs on the global executor while the main thread waits,
    /// which spares the async main's `pthread_exit` and its unwinder set-up (see
    /// `CommandRunner.runDetached`).
    static func main() {
        // The main thread only waits, and takes SIGINT and SIGTERM even when the parent started gallery with them blocked.
        pasteboard_unblock_interrupts()
        CommandRunner.runDetached { await CommandRunner.main(GalleryCommand.self) }
    }
}

import ArgumentParser
import Gallery
import PasteboardCLI

/// `gallery add`: add a PNG image to the gallery.
struct Add: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a PNG image (copied beside the gallery file) with a title.",
        discussion: "The aspect ratio comes from the PNG header. Anything but a PNG is refused and nothing changes."
    )

    @OptionGroup var options: GalleryOptions

    @Option(name: .customLong("title"), help: ArgumentHelp("The image's title.", valueName: "title"))
    var title: String

    @Option(name: .customLong("at"), help: ArgumentHelp("Insert at this index (default: the end).", valueName: "index"))
    var index: Int?

    @Argument(help: ArgumentHelp("The PNG file.", valueName: "image"), completion: .file())
    var image: String

    func run() throws {
        do {
            let added = try options.gallery.add(imageAt: image, title: title, at: index)
            Output.printError("gallery: added '\(added.title)' (aspect ratio \(ListImages.ratio(added.aspectRatio)))")
        } catch let error as GalleryError {
            throw CLIError.failure(error.description)
        }
    }
}

import ArgumentParser
import GalleryModel
import PasteboardCLI

/// `gallery move`: reorder one image.
struct Move: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "move", abstract: "Move the image at index FROM so that it stands at index TO.")

    @OptionGroup var options: GalleryOptions

    @Argument(help: ArgumentHelp("The image's index now.", valueName: "from"))
    var from: Int

    @Argument(help: ArgumentHelp("Its index afterwards.", valueName: "to"))
    var to: Int

    func run() throws {
        do {
            try options.gallery.move(from: from, to: to)
        } catch let error as GalleryError {
            throw CLIError.failure(error.description)
        }
    }
}

import ArgumentParser
import GalleryModel
import PasteboardCLI

/// `gallery add`: add a PNG image to the gallery.
struct Add: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a PNG image (copied beside the gallery file) with a title.",
        discussion: """
            The title defaults to the file's name without its .png extension. The aspect ratio \
            comes from the PNG header. Anything but a PNG is refused and nothing changes.
            """
    )

    @OptionGroup var options: GalleryOptions

    @Option(name: .customLong("title"), help: ArgumentHelp("The image's title (default: the file's name without .png).", valueName: "title"))
    var title: String?

    @Option(name: .customLong("at"), parsing: .unconditional, help: ArgumentHelp("Insert at this index (default: the end).", valueName: "index"))
    var index: Int?

    @Argument(help: ArgumentHelp("The PNG file.", valueName: "image"), completion: .file())
    var image: String

    func validate() throws {
        if let index, index < 0 { throw ValidationError("--at must be 0 or more, not \(index)") }
    }

    func run() throws {
        do {
            let added = try options.gallery.add(imageAt: image, title: title ?? Self.defaultTitle(for: image), at: index)
            Output.printError("gallery: added '\(added.title)' (aspect ratio \(ListImages.ratio(added.aspectRatio)))")
        } catch let error as GalleryError {
            throw CLIError.failure(error.description)
        }
    }

    /// The title of an image added without --title: its file's name, without a `.png` extension
    /// (as a dropped image is titled by its suggested name).
    static func defaultTitle(for path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let stem = name.lowercased().hasSuffix(".png") ? String(name.dropLast(4)) : name
        return stem.isEmpty ? name : stem
    }
}

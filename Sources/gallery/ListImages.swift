import ArgumentParser
import GalleryModel
import PasteboardCLI

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `gallery list`: the images in order.
struct ListImages: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the images in order: index, title, aspect ratio, where the image came from.",
        discussion: "An image still loading from a drop is shown as (loading); placeholders left by a gallery that died are removed first."
    )

    @OptionGroup var options: GalleryOptions

    @Flag(name: .long, help: "Print the gallery document as JSON.")
    var json = false

    func run() throws {
        let gallery = options.gallery
        do {
            if (try? gallery.read().images.contains(where: \.isPlaceholder)) == true {
                try gallery.removeStalePlaceholders()
            }
            let document = try gallery.read()
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                try Output.printLine(String(decoding: try encoder.encode(document), as: UTF8.self))
                return
            }
            if document.images.isEmpty { try Output.printLine("(empty)") }
            for (index, image) in document.images.enumerated() {
                let state = image.isPlaceholder ? "(loading)" : Self.ratio(image.aspectRatio)
                try Output.printLine("\(index)\t\(image.title)\t\(state)\t\(image.source ?? "-")")
            }
        } catch let error as GalleryError {
            throw CLIError.failure(error.description)
        }
    }

    /// An aspect ratio with two decimals.
    static func ratio(_ value: Double?) -> String {
        // From the gallery file: a ratio no Int holds in hundredths is shown as unknown.
        guard let value, value.isFinite, abs(value) < 1e15 else { return "-" }
        let hundredths = Int((value * 100).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}

#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import GalleryModel
import Pasteboard
import PasteboardCLI
import PasteboardSystem
import PasteboardTypes

/// `gallery drag`: lift images into a drag session and serve them until it ends.
struct DragImages: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "drag",
        abstract: "Drag images out of the gallery: begin a drag session and serve it until it ends.",
        discussion: """
            Each image is one item with these representations, best first: \
            com.example.gallery.image (JSON: title, URL, aspect ratio), public.png (produced \
            from the image file when loaded), public.utf8-plain-text (the title) and \
            public.file-url. Several images keep their order. The session's id is printed on \
            stderr; when the session ends the performed operation ('copy' or 'move') or \
            'cancelled' / 'failed' is printed on stdout (exit 0 when dropped, 1 otherwise). \
            After a finished move the images are removed from this gallery, unless the drop was \
            a reorder within it. SIGINT or SIGTERM abandons the drag.
            """
    )

    @OptionGroup var options: GalleryOptions

    @Argument(help: ArgumentHelp("Indexes of the images to drag, in order.", valueName: "index"))
    var indexes: [Int]

    @Option(name: .customLong("allow"),
            help: ArgumentHelp("The operations a destination may perform, comma-separated: copy, move.", valueName: "operations"))
    var allow: String = "copy,move"

    @Option(name: .customLong("timeout"), parsing: .unconditional,
            help: ArgumentHelp("Cancel the session when nobody dropped it within this many seconds.", valueName: "seconds"))
    var timeout: Double?

    @Flag(name: .customLong("restricted"), help: "Only gallery processes may see and drop the session.")
    var restricted = false

    @OptionGroup var handle: DesktopHandleOptions

    @Flag(name: [.customShort("v"), .customLong("verbose")], help: "Report every event of the session on stderr (refusals, the drop), not only its end.")
    var verbose = false

    func validate() throws {
        if indexes.isEmpty { throw ValidationError("give the index of at least one image") }
        if Set(indexes).count != indexes.count { throw ValidationError("an index is given twice") }
        _ = try DragFollowing.operations(allow)
        if let timeout, let failure = SecondsLimit.validationFailure(timeout) { throw ValidationError("--timeout \(failure)") }
        try handle.validate(restricted: restricted)
    }

    func run() async throws {
        let gallery = options.gallery
        let images: [GalleryImage]
        do {
            let document = try gallery.read()
            images = try indexes.map { index throws(GalleryError) in
                guard document.images.indices.contains(index) else {
                    throw GalleryError.indexOutOfRange(index: index, count: document.images.count)
                }
                return document.images[index]
            }
        } catch {
            throw CLIError.failure(error.description)
        }
        if let loading = images.first(where: \.isPlaceholder) {
            throw CLIError.failure("'\(loading.title)' is still loading from a drop; it cannot be dragged yet")
        }
        let items = try images.map { try Self.item(for: $0, in: gallery) }
        let context = GalleryDragContext(file: gallery.path, ids: images.map(\.id))
        let origin = try handle.origin()
        let (operations, verbose, timeout, restricted, desktop) = (try DragFollowing.operations(allow), verbose, timeout, restricted, handle.isRequested)
        let count = items.count
        if desktop { DesktopBridgeCheck.noteUnlessShown(tool: "gallery") }
        let end = try await DragFollowing.liftAndFollow(tool: "gallery", verbose: verbose) { body in
            try await options.withConnection(body)
        } lift: { connection in
            try await DragSession.begin(
                with: items, allowing: operations, restrictedToApp: restricted, localContext: context.text,
                timeout: timeout.map(SecondsLimit.duration), showOnDesktop: desktop, handleOrigin: origin, on: connection
            )
        } lifted: { session in
            "drag session \(session.id): \(count) image\(count == 1 ? "" : "s") lifted"
        }
        if case .finished(.move, _, let destinationContext) = end, destinationContext != gallery.path {
            do {
                try gallery.remove(ids: context.ids)
            } catch {
                Output.printOut("move")
                throw CLIError.failure("the images were moved, but removing them from \(gallery.path) failed: \(ErrorMessage.text(for: error))")
            }
        }
        try DragFollowing.report(end)
    }

    /// One image as an item: the gallery's own type, the PNG (read from the file when loaded),
    /// the title as text, and the file's URL.
    private static func item(for image: GalleryImage, in gallery: GalleryFile) throws -> ItemProvider {
        guard let path = gallery.absolutePath(of: image) else {
            throw CLIError.failure("'\(image.title)' has no image data")
        }
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw CLIError.failure("cannot read the image of '\(image.title)' (\(path)): \(SystemError.current)")
        }
        let url = FileURL.string(for: path)
        var item = ItemProvider(suggestedName: FileURL.fileName(forTitle: image.title) + ".png")
        let reference = GalleryImageReference(title: image.title, url: url, aspectRatio: image.aspectRatio ?? 1)
        item.registerData(reference.encoded(), for: GalleryTypes.image)
        item.registerDataRepresentation(for: .png, size: Int(info.st_size)) { writer in
            try await writer.writeFile(at: path)
        }
        item.registerData(Array(image.title.utf8), for: .utf8PlainText)
        item.registerData(Array(url.utf8), for: .fileURL)
        return item
    }
}

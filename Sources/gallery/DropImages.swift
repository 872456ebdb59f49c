import ArgumentParser
import GalleryModel
import Pasteboard
import PasteboardCLI
import PasteboardProtocol
import PasteboardTypes

/// `gallery drop`: drop a drag session into the gallery.
struct DropImages: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "drop",
        abstract: "Drop the current (or a named) drag session into the gallery at an index.",
        discussion: """
            A drag from this same gallery file is a move: the images are reordered to --at. A \
            drag from another gallery is a copy of its images (title, aspect ratio and PNG); \
            from any other source, each item with a PNG becomes an image titled by its plain \
            text or its suggested name. While an image loads, a placeholder stands in the \
            gallery (shown as (loading) by 'gallery list'); once the data has arrived it is \
            committed wherever the placeholder then stands, or removed if the load fails. Several \
            images keep their order. A drag without any PNG is forbidden and stays in flight.
            """
    )

    @OptionGroup var options: GalleryOptions

    @Option(name: .customLong("at"), parsing: .unconditional, help: ArgumentHelp("Where the images go (default: the end).", valueName: "index"))
    var index: Int?

    @Option(name: .customLong("session"), parsing: .unconditional, help: ArgumentHelp("The session's id (default: the current session).", valueName: "id"))
    var session: Int?

    @Flag(name: .customLong("wait"), help: "When no drag session is in flight (or not the one --session names), wait for one to begin.")
    var wait = false

    @Flag(name: .customLong("progress"), help: "Print 'progress COMPLETED TOTAL' lines (over all images) on stderr.")
    var progressLines = false

    @Flag(name: .customLong("no-progress"), help: "Print no progress, not even a bar on a terminal.")
    var noProgress = false

    @Flag(name: .customLong("desktop"), help: "Wait for a drop from a desktop application instead: the desktop bridge shows a drop zone (X11 or Wayland) that takes PNG images and PNG files.")
    var desktop = false

    func validate() throws {
        if desktop, session != nil || wait { throw ValidationError("--desktop waits for the drop made into its zone; it takes neither --session nor --wait") }
        if let index, index < 0 { throw ValidationError("--at must be 0 or more, not \(index)") }
        if progressLines && noProgress { throw ValidationError("give --progress or --no-progress, not both") }
        if let session, session < 1 { throw ValidationError("--session must be 1 or more (session ids count from 1), not \(session)") }
    }

    func run() async throws {
        let gallery = options.gallery
        _ = try? gallery.removeStalePlaceholders()
        let (session, index, wait, desktop) = (session, index, wait, desktop)
        let mode = ProgressDisplay.mode(lines: progressLines, none: noProgress)
        if desktop { try DesktopWaiting.announce(tool: "gallery") }
        try await options.withConnection { connection in
            let found: DropSession
            do {
                found = desktop
                    ? try await DesktopWaiting.drop(title: "gallery \(gallery.path)", accepting: [.png], on: connection)
                    : try await DropSession.find(session, on: connection)
            } catch let error as PasteboardError where wait && error.code == .noSuchSession {
                Output.printError("gallery: no drag session\(session.map { " \($0)" } ?? "") in flight; waiting for one (Ctrl+C to stop)")
                found = try await Signals.cancellingOnInterrupt { try await DropSession.find(session, on: connection, waiting: true) }
            }
            if let context = GalleryDragContext(found.localContext), context.file == gallery.path,
               found.allowedOperations.contains(.move) {
                try await Self.reorder(found, context: context, in: gallery, at: index)
                return
            }
            let images = found.items.filter { $0.representation(accepting: [.png]) != nil }
            guard !images.isEmpty else {
                _ = try await found.perform(.forbidden)
                let offered = Set(found.items.flatMap(\.types).map(TypeWording.display)).sorted().joined(separator: ", ")
                throw CLIError.failure("drag session \(found.id) from \(found.sourceApp) offers no PNG image (only \(offered)): drop forbidden")
            }
            guard let drop = try await found.perform(.copy) else {
                throw CLIError.failure("drag session \(found.id) was not dropped")
            }
            do {
                let added = try await Signals.cancellingOnInterrupt {
                    let display = ProgressDisplay(mode: mode)
                    defer { display.finish() }
                    return try await Self.insert(images, from: drop, into: gallery, at: index, display: display)
                }
                try await drop.finish()
                Output.printError("gallery: added \(added) image\(added == 1 ? "" : "s") from drag session \(drop.id)")
            } catch {
                let reason = error is CancellationError ? "the gallery was interrupted" : ErrorMessage.text(for: error)
                try? await drop.finish(success: false, message: reason)
                throw error
            }
        }
    }

    /// A drag from this gallery: move its images to `index` (the seed's local reorder).
    private static func reorder(_ session: DropSession, context: GalleryDragContext, in gallery: GalleryFile, at index: Int?) async throws {
        guard let drop = try await session.perform(.move) else {
            throw CLIError.failure("drag session \(session.id) was not dropped")
        }
        do {
            let target = try index ?? gallery.read().images.count
            let first = try gallery.moveImages(ids: context.ids, to: target)
            try await drop.finish(localContext: gallery.path)
            Output.printError("gallery: moved \(context.ids.count) image\(context.ids.count == 1 ? "" : "s") to index \(first)")
        } catch {
            try? await drop.finish(success: false, message: ErrorMessage.text(for: error))
            throw CLIError.failure(ErrorMessage.text(for: error))
        }
    }

    /// Loads each image behind a placeholder, in order; returns how many were added.
    private static func insert(
        _ images: [PasteboardItem], from drop: PerformedDrop, into gallery: GalleryFile, at index: Int?, display: ProgressDisplay
    ) async throws -> Int {
        let host = GalleryPlaceholderHost(gallery: gallery)
        var tracker = DropProgress.Tracker(items: images, accepting: [.png])
        var next = index
        for item in images {
            let (title, origin) = try await describe(item, from: drop)
            let committed = try await withDropPlaceholder(in: host, titled: title, at: next) { _ in
                let file = try await drop.loadFile(item: item.index, accepting: [.png]) { progress in
                    display.update(tracker.update(item: item.index, progress).overall)
                }
                let stored: (file: String, aspectRatio: Double)
                do {
                    stored = try gallery.storeImage(movingFile: file.path, describedAs: Self.name(of: item))
                } catch {
                    throw CLIError.failure("item \(item.index) of drag session \(drop.id): \(error)")
                }
                file.keep()
                return GalleryImage(title: title, source: origin, aspectRatio: stored.aspectRatio, file: stored.file)
            }
            next = committed + 1
        }
        return images.count
    }

    /// How messages name a dropped item: the file name its source suggested (what the dragging
    /// user dragged), else "the dropped data"; never the temporary file it was loaded into.
    private static func name(of item: PasteboardItem) -> String {
        guard let name = item.suggestedName?.split(separator: "/").last, !name.isEmpty else { return "the dropped data" }
        return String(name)
    }

    /// The title and origin of a dropped image: from another gallery's own type (the origin is
    /// the path of the other gallery's image file, as `gallery add` records the added file's
    /// path), else the plain text (when short), else the suggested name.
    private static func describe(_ item: PasteboardItem, from drop: PerformedDrop) async throws -> (title: String, origin: String) {
        let origin = "drag session \(drop.id) from \(drop.info.app)"
        if item.representation(accepting: [GalleryTypes.image])?.type == GalleryTypes.image {
            let (_, bytes) = try await drop.loadData(item: item.index, accepting: [GalleryTypes.image])
            if let reference = GalleryImageReference.decode(bytes) {
                return (reference.title, FileURL.path(from: reference.url) ?? reference.url)
            }
        }
        if let text = item.representation(accepting: [.plainText]), (text.size ?? .max) <= 4096 {
            let (_, bytes) = try await drop.loadData(item: item.index, accepting: [.plainText])
            let line = String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
            if !line.isEmpty { return (line, origin) }
        }
        if let name = item.suggestedName, !name.isEmpty {
            return (Add.defaultTitle(for: name), origin)  // titled as `gallery add` titles a file
        }
        return ("Untitled", origin)
    }
}

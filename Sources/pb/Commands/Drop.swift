#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import Pasteboard
import PasteboardCLI
import PasteboardTypes

/// `pb drop`: be the destination of a drag session: drop it, load its items, finish it.
struct Drop: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "drop",
        abstract: "Drop the current (or a named) drag session and write its items to stdout, a file or a directory.",
        discussion: """
            The current session is the most recent one in flight. -t repeats in preference order \
            as for pb paste; each item's best representation for them is loaded, with progress \
            over all items. One item goes to stdout or -o FILE; with several items -o must name a \
            directory, and each item is written there under its suggested name. A failed or \
            interrupted drop writes nothing, and the source hears that the drop failed (it keeps \
            its originals). When no item offers an accepted type, the drop is refused (forbidden) \
            and the session stays in flight.

            --operation move asks the source to delete its originals once the drop finished; \
            when the source allows only copy, the drop is a copy.
            """
    )

    @Option(name: [.customShort("t"), .customLong("type")], parsing: .singleValue,
            help: ArgumentHelp("An accepted type: UTI, MIME type, 'text' or 'image'. Repeat, most preferred first.", valueName: "type"))
    var types: [String] = []

    @Option(name: .customLong("operation"), help: ArgumentHelp("copy or move.", valueName: "operation"))
    var operation: String = "copy"

    @Option(name: .customLong("session"), parsing: .unconditional, help: ArgumentHelp("The session's id (default: the current session).", valueName: "id"))
    var session: Int?

    @Option(name: [.customShort("o"), .customLong("output")],
            help: ArgumentHelp("A file for one item, or an existing directory for any number of items.", valueName: "path"),
            completion: .file())
    var output: String?

    @Flag(name: .customLong("progress"), help: "Print 'progress COMPLETED TOTAL' lines (over all items) on stderr.")
    var progressLines = false

    @Flag(name: .customLong("no-progress"), help: "Print no progress, not even a bar on a terminal.")
    var noProgress = false

    @Flag(name: .customLong("desktop"), help: ArgumentHelp(
        "Wait for a drop from a desktop application instead: the desktop bridge shows a drop zone (X11 or Wayland).",
        discussion: "Files dropped there are written as with a drag session's files; other data as the application's best type for -t."))
    var desktop = false

    func validate() throws {
        if desktop, session != nil { throw ValidationError("--desktop takes the drop made into its zone; it cannot be given a --session") }
        guard DragOperation(rawValue: operation) != nil else { throw ValidationError("--operation takes copy or move, not '\(operation)'") }
        if progressLines && noProgress { throw ValidationError("give --progress or --no-progress, not both") }
        if let session, session < 1 { throw ValidationError("--session must be 1 or more (session ids count from 1), not \(session)") }
    }

    func run() async throws {
        let accepted = try TypeArguments.pasteTypes(types, registry: TypeArguments.registry(resolving: types))
        let proposal = DropProposal(operation: operation == "move" ? .move : .copy)
        let directory = output.flatMap { Self.isDirectory($0) ? $0 : nil }
        let mode = ProgressDisplay.mode(lines: progressLines, none: noProgress)
        let (session, output, desktop) = (session, output, desktop)
        if desktop { try DesktopWaiting.announce(tool: "pb") }
        try await PasteboardConnection.withConnection(clientName: "pb") { connection in
            let found = desktop
                ? try await DesktopWaiting.drop(title: output.map { "pb drop -o \($0)" } ?? "pb drop", accepting: accepted, on: connection)
                : try await DropSession.find(session, on: connection)
            let wanted = found.items.filter { $0.representation(accepting: accepted) != nil }
            if wanted.isEmpty {
                _ = try await found.perform(.forbidden)
                let offered = Set(found.items.flatMap(\.types).map(TypeWording.display)).sorted().joined(separator: ", ")
                throw CLIError.failure("drag session \(found.id) offers no \(accepted.map(TypeWording.display).joined(separator: " or ")) (it offers \(offered)); drop refused")
            }
            if wanted.count > 1, directory == nil {
                if let output {
                    // Named, but not an existing directory: say so, not merely "give -o".
                    throw CLIError.usage("drag session \(found.id) has \(wanted.count) items, and \(output) is not an existing directory: create it, or give -o an existing one")
                }
                throw CLIError.usage("drag session \(found.id) has \(wanted.count) items: give -o DIRECTORY to receive them")
            }
            guard let drop = try await found.perform(proposal) else {
                throw CLIError.failure("drag session \(found.id) was not dropped")
            }
            do {
                try await Signals.cancellingOnInterrupt {
                    let display = ProgressDisplay(mode: mode)
                    defer { display.finish() }
                    if let directory {
                        let files = try await drop.loadFiles(accepting: accepted, directory: directory) { display.update($0.overall) }
                        for (item, file) in files {
                            try file.move(to: Self.unusedPath(in: directory, for: drop.items[item]))
                        }
                    } else {
                        let file = try output.map { path throws(CLIError) in try AtomicFileWriter(path: path) }
                        try await drop.load(item: wanted[0].index, accepting: accepted, progress: display.update) { chunk in
                            if let file { try file.write(chunk.buffer) } else { try Output.write(chunk.buffer, to: 1) }
                        }
                        try file?.commit()
                    }
                }
            } catch {
                let reason = (error is CancellationError) ? "the destination (pb) was interrupted" : ErrorMessage.text(for: error)
                try? await drop.finish(success: false, message: reason)
                throw error
            }
            try await drop.finish()
            if drop.operation != proposal.operation.asDragOperation {
                Output.printError("pb: drag session \(drop.id) allows only copy: copied")
            }
        }
    }

    private static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// `directory/NAME` for the item's suggested name (its last path component), else `item-N`;
    /// an existing file is never overwritten: `NAME-2`, `NAME-3`, ... before the extension.
    static func unusedPath(in directory: String, for item: PasteboardItem) -> String {
        var name = item.suggestedName.flatMap { $0.split(separator: "/").last.map(String.init) } ?? "item-\(item.index)"
        if name == "." || name == ".." { name = "item-\(item.index)" }
        let dot = name.lastIndex(of: ".").flatMap { $0 == name.startIndex ? nil : $0 }
        let (stem, suffix) = dot.map { (String(name[..<$0]), String(name[$0...])) } ?? (name, "")
        var candidate = directory + "/" + name
        var counter = 2
        while access(candidate, F_OK) == 0 {
            candidate = directory + "/" + stem + "-\(counter)" + suffix
            counter += 1
        }
        return candidate
    }
}

extension DropOperation {
    /// The drag operation a `copy`/`move` proposal asks for.
    var asDragOperation: DragOperation? {
        switch self {
        case .copy: .copy
        case .move: .move
        case .cancel, .forbidden: nil
        }
    }
}

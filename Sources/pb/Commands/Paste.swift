import ArgumentParser
import Pasteboard
import PasteboardCLI

/// `pb paste`: write an item's best representation for the accepted types to stdout or a file.
struct Paste: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "paste",
        abstract: "Paste an item's representation to stdout or a file.",
        discussion: """
            -t repeats in preference order and takes a type identifier, a MIME type, or the words \
            'text' (plain text, else any text) and 'image'. The choice is the first requested type \
            that some representation conforms to and, among those, the item's highest-fidelity \
            representation. Without -t, the item's first representation.

            When stdout is a terminal and the representation is not text (an image, an archive), \
            pb writes nothing and exits 1 with a hint: give -o FILE, pipe it to a program, or \
            --force.
            """
    )

    @OptionGroup var options: PasteboardOptions

    @Option(name: [.customShort("t"), .customLong("type")], parsing: .singleValue,
            help: ArgumentHelp("An accepted type: UTI, MIME type, 'text' or 'image'. Repeat, most preferred first.", valueName: "type"))
    var types: [String] = []

    @Option(name: .customLong("item"), parsing: .unconditional, help: ArgumentHelp("Which item, from 0.", valueName: "n"))
    var item: Int = 0

    @Option(name: [.customShort("o"), .customLong("output")],
            help: ArgumentHelp("Write to this file (through a temporary file and a rename) instead of stdout.", valueName: "path"),
            completion: .file())
    var output: String?

    @Flag(name: .customLong("progress"), help: "Print 'progress COMPLETED TOTAL' lines on stderr.")
    var progressLines = false

    @Flag(name: .customLong("no-progress"), help: "Print no progress, not even a bar on a terminal.")
    var noProgress = false

    @Flag(name: [.customShort("f"), .customLong("force")], help: "Write data that is not text to a terminal too.")
    var force = false

    func validate() throws {
        if item < 0 { throw ValidationError("--item must be 0 or more (items are counted from 0), not \(item)") }
        if progressLines && noProgress { throw ValidationError("give --progress or --no-progress, not both") }
    }

    func run() async throws {
        try await PasteJob(pasteboard: options.pasteboard, types: types, item: item, output: output,
                           progress: ProgressDisplay.mode(lines: progressLines, none: noProgress), force: force).run()
    }
}

import ArgumentParser
import Pasteboard
import PasteboardCLI
import PasteboardSystem
import PasteboardTypes

/// `pb drag`: lift files (or one item of several representations) into a drag session, serve
/// them to the destination that drops it, and report how the session ended.
struct Drag: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "drag",
        abstract: "Begin a drag session (or add items to one) and serve its items until it ends.",
        discussion: """
            Each FILE is one item, read only when the destination that dropped the session loads \
            it; --rep builds one item of several representations, as for pb copy; without either, \
            stdin is one item. pb prints the session's id on stderr and stays until the session \
            ends, then prints the performed operation on stdout: 'copy' or 'move' (exit 0), or \
            'cancelled' or 'failed' (exit 1). pb never deletes FILE after a move: the shell \
            decides what a move means: [ "$(pb drag --allow copy,move a.png)" = move ] && rm a.png.

            SIGINT or SIGTERM abandons the session: it ends cancelled. When pasteboardd goes away \
            before anyone dropped the session, pb reconnects (starting it if needed) and lifts the \
            items again in a new session, whose id it prints; a session already dropped, or one \
            joined with --add, ends failed.
            """
    )

    @OptionGroup var input: ItemArguments

    @Option(name: .customLong("allow"),
            help: ArgumentHelp("The operations a destination may perform, comma-separated: copy, move.", valueName: "operations"))
    var allow: String = "copy"

    @Option(name: .customLong("timeout"), parsing: .unconditional,
            help: ArgumentHelp("Cancel the session when nobody dropped it within this many seconds.", valueName: "seconds"))
    var timeout: Double?

    @Option(name: .customLong("add"), parsing: .unconditional,
            help: ArgumentHelp("Add the items to this session in flight instead of beginning one.", valueName: "session"))
    var add: Int?

    @Flag(name: .customLong("restricted"), help: "Only other pb processes may see and drop the session.")
    var restricted = false

    @OptionGroup var handle: DesktopHandleOptions

    @Flag(name: [.customShort("v"), .customLong("verbose")], help: "Report each load and each proposal on stderr.")
    var verbose = false

    func validate() throws {
        _ = try DragFollowing.operations(allow)
        if let timeout, let failure = SecondsLimit.validationFailure(timeout) { throw ValidationError("--timeout \(failure)") }
        if let add, add < 1 { throw ValidationError("--add must be 1 or more (session ids count from 1), not \(add)") }
        if add != nil, timeout != nil || restricted || handle.isRequested || allow != "copy" {
            throw ValidationError("--allow, --timeout, --restricted, --desktop and --desktop-at describe a new session; they do not apply with --add")
        }
        try handle.validate(restricted: restricted)
    }

    func run() async throws {
        let registry = TypeArguments.registry().registry
        let serving = LazyServing(verbose: verbose, pasteOnce: false)
        let servesFiles = !input.files.isEmpty || input.representations.contains { $0.contains("=@") }
        var lifted = servesFiles && (try? input.validateLazy()) != nil
            ? try input.lazyItems(registry: registry, serving: serving)
            : try input.eagerItems(registry: registry, streaming: false)  // a lost daemon lifts the items again
        if handle.isRequested, input.representations.isEmpty, lifted.count == input.files.count {
            // A desktop application takes a drop of files as their URLs (text/uri-list): each
            // FILE item offers its URL after its contents.
            for (index, file) in input.files.enumerated() where !lifted[index].registeredTypes.contains(.fileURL) {
                lifted[index].registerData(Array(FileURL.string(for: LexicalPath.absolute(file)).utf8), for: .fileURL)
            }
        }
        let items = lifted
        let (origin, desktop) = (try handle.origin(), handle.isRequested)
        if desktop { DesktopBridgeCheck.noteUnlessShown(tool: "pb") }
        let operations = try DragFollowing.operations(allow)
        let (add, restricted, timeout, count) = (add, restricted, timeout, items.count)
        let end = try await DragFollowing.liftAndFollow(tool: "pb", verbose: verbose, retry: add == nil) { body in
            try await PasteboardConnection.withConnection(clientName: "pb", body)
        } lift: { connection in
            if let add { return try await DragSession.add(items, to: add, on: connection) }
            return try await DragSession.begin(
                with: items, allowing: operations, restrictedToApp: restricted,
                timeout: timeout.map(SecondsLimit.duration), showOnDesktop: desktop, handleOrigin: origin, on: connection
            )
        } lifted: { session in
            // Items added to a session in flight join what its source lifted; they are not lifted.
            let what = add == nil ? "lifted" : "added to the session"
            return "drag session \(session.id): \(count) item\(count == 1 ? "" : "s") \(what); drop with 'pb drop --session \(session.id)'"
        }
        try DragFollowing.report(end)
    }
}

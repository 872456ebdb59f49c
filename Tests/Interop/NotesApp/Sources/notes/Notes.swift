import Foundation
import Pasteboard

/// `notes copy TITLE BODY | paste | paste-busy | drag TITLE BODY | drop | install`: the notes app
/// without a window (`paste-busy` pastes while the main actor is kept busy, as a window's would
/// be; `install` writes its type declaration into types.d for good, as an installer would).
/// What a window would show goes to stdout as `key: value` lines; what it is doing, to stderr.
/// Exit status: 0 success, 1 failure, 2 usage.
@main
struct Notes {
    @MainActor
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        let model = NotesViewModel()
        do {
            switch (arguments.first, arguments.count) {
            case ("copy", 3):
                // Serves until replaced, or until Ctrl-C / SIGTERM (caught by the library).
                let outcome = try await model.copy(Note(title: arguments[1], body: arguments[2]))
                Output.show("copy", outcome == .stopped ? "stopped; the daemon keeps the note" : "replaced")
            case ("paste", 1):
                try await model.paste()
                show(model)
            case ("paste-busy", 1):
                // As a window whose main actor has work of its own: busy 8 ms of every 10.
                let busy = Task { @MainActor in
                    while !Task.isCancelled {
                        model.busyJob(milliseconds: 8)
                        try? await Task.sleep(for: .milliseconds(2))
                    }
                }
                try await model.paste()
                busy.cancel()
                _ = await busy.value
                show(model)
                Output.show("reports inside a job", "\(model.reportsInsideAJob)")
            case ("drag", 3):
                try await model.drag(Note(title: arguments[1], body: arguments[2]))
                Output.show("events", model.dragEvents.joined(separator: "; "))
                guard case .finished(let operation, _, _) = model.lastOutcome else {
                    Output.show("outcome", model.lastOutcome.map(\.description) ?? "none")
                    exit(1)
                }
                Output.show("outcome", operation.rawValue)
            case ("drop", 1):
                try await model.drop()
                show(model)
            case ("install", 1):
                let path = try TypeDeclaration.install([Note.declaration], fileName: "com.example.notes", app: NotesViewModel.app)
                Output.show("installed", path)
            default:
                Output.status("usage: notes copy TITLE BODY | notes paste | notes paste-busy | notes drag TITLE BODY | notes drop | notes install")
                exit(2)
            }
        } catch {
            Output.status("error: \(error)")
            exit(1)
        }
    }

    /// The pasted or dropped note, the type it came as, and the progress the view model saw.
    @MainActor
    private static func show(_ model: NotesViewModel) {
        Output.show("title", model.note?.title ?? "")
        Output.show("body", model.note?.body ?? "")
        Output.show("type", model.receivedType?.rawValue ?? "?")
        Output.show("progress", "\(model.progressText) in \(model.progressReports) reports")
    }
}

/// The app's two outputs.
enum Output {
    /// A `key: value` line on stdout; newlines in the value are shown as `\n`.
    static func show(_ key: String, _ value: String) {
        print("\(key): \(value.replacingOccurrences(of: "\n", with: "\\n"))")
    }

    /// A line on stderr, flushed at once (tests wait for them).
    static func status(_ line: String) {
        FileHandle.standardError.write(Data("notes: \(line)\n".utf8))
    }
}

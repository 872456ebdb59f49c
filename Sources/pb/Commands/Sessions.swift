import ArgumentParser
import Pasteboard
import PasteboardCLI

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PasteboardProtocol

/// `pb sessions`: the drag sessions in flight, with their items and types.
struct Sessions: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sessions",
        abstract: "List the drag sessions in flight with their items and types (never their data).",
        discussion: "Sessions restricted to another application are not shown. The last one listed is the current session."
    )

    @Flag(name: .long, help: "Print JSON (an array of sessions) instead of text.")
    var json = false

    func run() async throws {
        let sessions = try await PasteboardConnection.withConnection(clientName: "pb") { connection in
            try await DropSession.all(on: connection).map(\.info)
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            try Output.printLine(String(decoding: try encoder.encode(sessions), as: UTF8.self))
            return
        }
        if sessions.isEmpty { try Output.printLine("(no drag sessions in flight)") }
        for session in sessions {
            let restricted = session.restricted == true ? ", restricted" : ""
            let desktop = session.desktop == true ? ", on the desktop" : session.zone != nil ? ", dropped from the desktop" : ""
            try Output.printLine(
                "session \(session.id): \(session.state.rawValue) by \(session.app) (pid \(session.pid)), allows \(session.allow.map(\.rawValue).joined(separator: ","))\(restricted)\(desktop)"
            )
            for (index, item) in session.items.enumerated() {
                try Output.printLine("  item \(index)" + (item.suggestedName.map { ": \($0)" } ?? ""))
                for representation in item.representations {
                    let size = representation.size.map { "\($0) bytes" } ?? "size unknown"
                    let state = representation.unavailable == true ? "  (unavailable)" : representation.lazy == true ? "  (lazy)" : ""
                    try Output.printLine("    \(representation.type)  \(representation.mimeType ?? "-")  \(size)\(state)")
                }
            }
        }
    }
}

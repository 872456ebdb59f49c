import Foundation
import XCTest

/// One of our commands as swift-argument-parser describes it with `--experimental-dump-help`:
/// the same subcommands and options `--help` shows, as JSON rather than prose.
struct CommandHelp: Decodable {
    let commandName: String
    let shouldDisplay: Bool?
    let subcommands: [CommandHelp]?
    let arguments: [Argument]?

    /// An argument, option or flag of a command.
    struct Argument: Decodable {
        /// `positional`, `option` or `flag`.
        let kind: String
        let shouldDisplay: Bool
        let names: [Name]?
        let abstract: String?
        let defaultValue: String?
    }

    /// One name of an option: `long` (`--name`), `short` (`-n`) or `longWithSingleDash` (`-name`).
    struct Name: Decodable {
        let kind: String
        let name: String

        /// The name as a user types it.
        var typed: String {
            switch kind {
            case "long": "--" + name
            default: "-" + name
            }
        }
    }

    /// The dump's envelope.
    private struct ToolInfo: Decodable {
        let command: CommandHelp
    }

    /// Runs `tool --experimental-dump-help` and decodes what it prints.
    static func of(_ tool: String, in sandbox: Sandbox, file: StaticString = #filePath, line: UInt = #line) throws -> CommandHelp {
        let result = try runTool(tool, ["--experimental-dump-help"], environment: sandbox.environment(), in: sandbox)
        XCTAssertEqual(result.status, 0, "\(tool) --experimental-dump-help: \(result.stderr)", file: file, line: line)
        return try JSONDecoder().decode(ToolInfo.self, from: result.stdout).command
    }

    /// The options and flags `--help` lists (hidden ones left out), `-h, --help` included.
    var options: [CommandOption] {
        (arguments ?? []).compactMap { argument in
            guard argument.kind != "positional", argument.shouldDisplay, let names = argument.names, !names.isEmpty else { return nil }
            return CommandOption(names: names.map(\.typed), abstract: argument.abstract ?? "", defaultValue: argument.defaultValue)
        }
    }

    /// The subcommands a user can run. That includes `help`, which swift-argument-parser adds to
    /// every command with subcommands (`pb help copy`); the dump also lists it for a command
    /// without any, such as pasteboardd, where it is not a subcommand at all.
    var runnableSubcommands: [CommandHelp] {
        let shown = (subcommands ?? []).filter { $0.shouldDisplay ?? true }
        return shown.contains { $0.commandName != "help" } ? shown : []
    }

    /// Every long option of this command and of its subcommands, without duplicates.
    var allLongOptions: Set<String> {
        var names = Set(options.flatMap(\.names).filter { $0.hasPrefix("--") })
        for subcommand in runnableSubcommands { names.formUnion(subcommand.allLongOptions) }
        return names
    }
}

/// An option or flag: every name it has (`-p`, `--pasteboard`), the line `--help` gives it
/// and the default `--help` shows, if any.
struct CommandOption {
    let names: [String]
    let abstract: String
    let defaultValue: String?

    /// True for `-h, --help` and `--version`, which swift-argument-parser gives every command:
    /// a usage may leave them out, and one paragraph of OPTIONS documents each.
    var isStandard: Bool { names.contains("--help") || names.contains("--version") }

    /// The names joined as `--help` shows them: `-p, --pasteboard`.
    var label: String { names.joined(separator: ", ") }
}

/// The path of the program `name` in `$PATH`, or nil when none is installed.
func executableInPath(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":")
        .map { "\($0)/\(name)" }
        .first { FileManager.default.isExecutableFile(atPath: $0) }
}

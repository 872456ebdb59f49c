import Foundation
import XCTest

/// `pb` and `gallery` print completion scripts for bash, zsh and fish
/// (`--generate-completion-script SHELL`) that know every subcommand and option, that the
/// shells accept, and that complete a command line in bash and fish as a user's Tab would.
/// The zsh and fish checks that need the shell are skipped where it is not installed.
final class CompletionScriptTests: XCTestCase {
    /// The tools whose completion scripts the README tells users to install.
    static let tools = ["pb", "gallery"]

    var sandbox: Sandbox!

    override func setUpWithError() throws {
        sandbox = try Sandbox()
    }

    override func tearDown() {
        sandbox?.remove()
    }

    func testBashCompletesSubcommandsAndOptions() throws {
        XCTAssertEqual(try bashCompletions("pb", "pa"), ["paste"])
        XCTAssertEqual(try bashCompletions("pb", "paste", "--pro"), ["--progress"])
        XCTAssertEqual(try bashCompletions("pb", "drag", "--re").sorted(), ["--rep", "--restricted"])
        XCTAssertEqual(try bashCompletions("gallery", "dr").sorted(), ["drag", "drop"])
    }

    func testBashCompletesFileNamesWhereAFileIsExpected() throws {
        for name in ["report.pdf", "photo.png"] {
            XCTAssertTrue(FileManager.default.createFile(atPath: sandbox.path(name), contents: Data()))
        }
        let directory = String(sandbox.path("report.pdf").dropLast("report.pdf".count))
        XCTAssertEqual(try bashCompletions("pb", "paste", "-o", directory + "rep"), [directory + "report.pdf"])
        XCTAssertEqual(try bashCompletions("pb", "copy", directory + "pho"), [directory + "photo.png"])
        XCTAssertEqual(try bashCompletions("pb", "drop", "-o", directory + "rep"), [directory + "report.pdf"])
        XCTAssertEqual(try bashCompletions("gallery", "add", directory + "pho"), [directory + "photo.png"])
        XCTAssertEqual(try bashCompletions("gallery", "list", "--file", directory + "rep"), [directory + "report.pdf"])
    }

    func testBashOffersEverySubcommandAndOptionHelpLists() throws {
        for tool in Self.tools {
            let help = try CommandHelp.of(tool, in: sandbox)
            XCTAssertEqual(Set(try bashCompletions(tool, "")),
                           Set(help.runnableSubcommands.map(\.commandName) + help.options.flatMap(\.names)),
                           "\(tool) <Tab> in bash")
            for subcommand in help.runnableSubcommands where !subcommand.options.isEmpty {
                XCTAssertEqual(Set(try bashCompletions(tool, subcommand.commandName, "-")), Set(subcommand.options.flatMap(\.names)),
                               "\(tool) \(subcommand.commandName) -<Tab> in bash")
            }
        }
    }

    func testBashAcceptsTheBashScripts() throws {
        for tool in Self.tools {
            try assertShell("/bin/bash", ["-n"], accepts: try script(tool, for: "bash"), of: tool)
        }
    }

    func testZshScriptsNameEverySubcommandAndOption() throws {
        for tool in Self.tools {
            let script = try script(tool, for: "zsh")
            XCTAssertTrue(script.hasPrefix("#compdef \(tool)\n"), "\(tool)'s zsh script does not start with #compdef \(tool)")
            try assertScript(script, of: tool, shell: "zsh", names: { $0 }, subcommand: { "_\(tool)_\($0)()" })
        }
    }

    func testZshAcceptsTheZshScripts() throws {
        guard let zsh = executableInPath("zsh") else { throw XCTSkip("zsh is not installed") }
        for tool in Self.tools {
            try assertShell(zsh, ["-n"], accepts: try script(tool, for: "zsh"), of: tool)
        }
    }

    func testFishScriptsNameEverySubcommandAndOption() throws {
        for tool in Self.tools {
            try assertScript(try script(tool, for: "fish"), of: tool, shell: "fish",
                             names: { "-l '\($0.dropFirst(2))'" }, subcommand: { "-fa '\($0)'" })
        }
    }

    func testFishAcceptsTheFishScripts() throws {
        guard let fish = executableInPath("fish") else { throw XCTSkip("fish is not installed") }
        for tool in Self.tools {
            try assertShell(fish, ["--no-execute"], accepts: try script(tool, for: "fish"), of: tool)
        }
    }

    func testFishCompletesSubcommandsAndOptions() throws {
        guard let fish = executableInPath("fish") else { throw XCTSkip("fish is not installed") }
        XCTAssertEqual(try fishCompletions(fish, "pb pa"), ["paste"])
        XCTAssertEqual(try fishCompletions(fish, "pb paste --pro"), ["--progress"])
        XCTAssertEqual(try fishCompletions(fish, "gallery dr").sorted(), ["drag", "drop"])
    }

    func testUnknownShellIsAUsageError() throws {
        let result = try runTool("pb", ["--generate-completion-script", "tcsh"], environment: sandbox.environment(), in: sandbox)
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("zsh bash fish"), result.stderr)
    }

    /// What `tool --generate-completion-script shell` prints; fails the test unless it succeeds.
    private func script(_ tool: String, for shell: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let result = try runTool(tool, ["--generate-completion-script", shell], environment: sandbox.environment(), in: sandbox)
        XCTAssertEqual(result.status, 0, "\(tool) --generate-completion-script \(shell): \(result.stderr)", file: file, line: line)
        XCTAssertFalse(result.stdout.isEmpty, "\(tool) printed no \(shell) script", file: file, line: line)
        return result.stdoutText
    }

    /// Checks that `script` mentions each subcommand and each long option of `tool`, as the
    /// shell's completion syntax writes them (`subcommand`, `names` give the text to look for).
    private func assertScript(_ script: String, of tool: String, shell: String, names: (String) -> String,
                              subcommand: (String) -> String, file: StaticString = #filePath, line: UInt = #line) throws {
        let help = try CommandHelp.of(tool, in: sandbox)
        for name in help.runnableSubcommands.map(\.commandName) where !script.contains(subcommand(name)) {
            XCTFail("\(tool)'s \(shell) script does not complete the subcommand \(name)", file: file, line: line)
        }
        for option in help.allLongOptions.sorted() where !script.contains(names(option)) {
            XCTFail("\(tool)'s \(shell) script does not complete \(option)", file: file, line: line)
        }
    }

    /// Runs `shell` with `arguments` (a syntax check) on `script` as stdin and fails unless it accepts it.
    private func assertShell(_ shell: String, _ arguments: [String], accepts script: String, of tool: String,
                             file: StaticString = #filePath, line: UInt = #line) throws {
        let result = try runTool(shell, arguments, stdin: Data(script.utf8), environment: sandbox.environment(), in: sandbox)
        XCTAssertEqual(result.status, 0, "\(shell) \(arguments.joined(separator: " ")) rejects \(tool)'s script: \(result.stderr)",
                       file: file, line: line)
        XCTAssertEqual(result.stderr, "", "\(shell) warns about \(tool)'s script", file: file, line: line)
    }

    /// What fish offers (without the descriptions) for the command line `line`, with the
    /// script of the line's tool loaded: fish's own `complete -C`, as when the user presses Tab.
    private func fishCompletions(_ fish: String, _ line: String) throws -> [String] {
        let tool = String(line.prefix { $0 != " " })
        let scriptPath = sandbox.path("\(tool)-completion.fish")
        try script(tool, for: "fish").write(toFile: scriptPath, atomically: true, encoding: .utf8)
        let result = try runTool(fish, ["-c", "source $argv[1]; complete -C $argv[2]", scriptPath, line],
                                 environment: sandbox.environment(), in: sandbox)
        XCTAssertEqual(result.status, 0, "completing \(line) in fish: \(result.stderr)")
        return result.stdoutText.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) }
    }

    /// What bash offers when the user types `tool words...` and presses Tab at the end of the
    /// last word, with the script from `tool --generate-completion-script bash` loaded: the
    /// completion function is called as bash's programmable completion calls it.
    private func bashCompletions(_ tool: String, _ words: String...) throws -> [String] {
        let scriptPath = sandbox.path("\(tool)-completion.bash")
        try script(tool, for: "bash").write(toFile: scriptPath, atomically: true, encoding: .utf8)
        let driver = """
            source "$1"; shift
            COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
            "_$1" "$1" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let result = try runTool("/bin/bash", ["-c", driver, "bash", scriptPath, tool] + words,
                                 environment: sandbox.environment(), in: sandbox)
        XCTAssertEqual(result.status, 0, "completing \(tool) \(words.joined(separator: " ")): \(result.stderr)")
        return result.stdoutText.split(separator: "\n").map(String.init)
    }
}

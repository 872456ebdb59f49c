import Foundation
import XCTest

/// The pages under man/: they render without a warning, and the pages of pb, gallery and
/// pasteboardd document every subcommand and option that `--help` lists, and no other.
final class ManPageTests: XCTestCase {
    /// Every page the package ships.
    static let pages = ["pb.1", "gallery.1", "pasteboard-types.5", "pasteboard-protocol.7", "pasteboardd.8", "pasteboard-bridge.8"]

    var sandbox: Sandbox!

    override func setUpWithError() throws {
        sandbox = try Sandbox()
    }

    override func tearDown() {
        sandbox?.remove()
    }

    func testEveryPagePassesMandocLint() throws {
        guard let mandoc = executableInPath("mandoc") else {
            return XCTFail("mandoc is not installed: install Debian's mandoc package (apt-get install mandoc) to check the man pages")
        }
        for name in Self.pages {
            let page = try ManPage(name)
            let result = try runTool(mandoc, ["-T", "lint", "-W", "warning", page.path], environment: sandbox.environment(), in: sandbox)
            XCTAssertEqual(result.status, 0, "mandoc -T lint -W warning man/\(name) failed:\n\(result.stdoutText)\(result.stderr)")
            XCTAssertEqual(result.stdoutText + result.stderr, "", "mandoc -T lint -W warning man/\(name) warns")
        }
    }

    func testEveryPageRendersWithoutGroffWarnings() throws {
        guard let man = executableInPath("man") else { throw XCTSkip("man (Debian's man-db) is not installed") }
        var environment = sandbox.environment()
        environment["MANWIDTH"] = "80"
        for name in Self.pages {
            let page = try ManPage(name)
            let result = try runTool(man, ["--warnings", "-l", page.path], environment: environment, in: sandbox)
            XCTAssertEqual(result.status, 0, "man -l man/\(name): \(result.stderr)")
            XCTAssertEqual(result.stderr, "", "MANWIDTH=80 man --warnings -l man/\(name) warns")
            XCTAssertFalse(result.stdout.isEmpty, "man -l man/\(name) rendered nothing")
        }
    }

    func testPBPageDocumentsEverySubcommandAndOption() throws {
        try assertPage("pb.1", documents: "pb")
    }

    func testGalleryPageDocumentsEverySubcommandAndOption() throws {
        try assertPage("gallery.1", documents: "gallery")
    }

    func testPasteboarddPageDocumentsEveryOption() throws {
        try assertPage("pasteboardd.8", documents: "pasteboardd")
    }

    func testBridgePageDocumentsEveryOption() throws {
        try assertPage("pasteboard-bridge.8", documents: "pasteboard-bridge")
    }

    /// Fails once for each way the page disagrees with the tool's `--help`.
    private func assertPage(_ name: String, documents tool: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let audit = ManPageAudit(tool: tool, help: try CommandHelp.of(tool, in: sandbox), page: try ManPage(name))
        for problem in audit.problems {
            XCTFail("man/\(name): \(problem)", file: file, line: line)
        }
    }
}

/// A page under man/ as man(7) source, with the parts the checks read.
struct ManPage {
    let path: String
    private let lines: [String]

    /// The man/ directory of this package.
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Tests/PasteboardIntegrationTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // package root
        .appendingPathComponent("man")

    /// The page `man/name`.
    init(_ name: String) throws {
        path = Self.directory.appendingPathComponent(name).path
        lines = try String(contentsOfFile: path, encoding: .utf8).components(separatedBy: "\n")
    }

    /// The lines of the section `.SH title`, up to the next `.SH` (its subsections included).
    func section(_ title: String) -> [String] {
        blocks(openedBy: ".SH", closedBy: []).first { $0.title == title }?.lines ?? []
    }

    /// Every `.SS` subsection: its title as text, and its lines up to the next `.SS` or `.SH`.
    var subsections: [(title: String, lines: [String])] {
        blocks(openedBy: ".SS", closedBy: [".SH"])
    }

    /// The usages in SYNOPSIS as text: the synopsis shows one per line, and `.br` ends each.
    var synopsisUsages: [String] {
        var usages: [[String]] = [[]]
        for line in section("SYNOPSIS") {
            if ManText.macro(of: line) == ".br" { usages.append([]) } else { usages[usages.count - 1].append(ManText.plain(line)) }
        }
        return usages.map { $0.joined(separator: " ") }.filter { !$0.isEmpty }
    }

    /// The `.TP` paragraphs among `lines`: the tag (the line after `.TP`) and the text after it,
    /// up to the next paragraph or heading, as text.
    static func paragraphs(in lines: [String]) -> [(tag: String, text: String)] {
        var paragraphs: [(tag: String, text: String)] = []
        var inParagraph = false
        for (index, line) in lines.enumerated() {
            let macro = ManText.macro(of: line)
            if macro == ".TP", index + 1 < lines.count {
                paragraphs.append((ManText.plain(lines[index + 1]), ""))
                inParagraph = true
            } else if let macro, paragraphEnds.contains(macro) {
                inParagraph = false
            } else if inParagraph, ManText.macro(of: lines[index - 1]) != ".TP" {
                paragraphs[paragraphs.count - 1].text += ManText.plain(line) + " "
            }
        }
        return paragraphs
    }

    /// The macros that end a `.TP` paragraph.
    private static let paragraphEnds: Set<String> = [".PP", ".P", ".LP", ".SS", ".SH"]

    /// The runs of lines that start at each `opener` macro and end before the next opener or any `closers` macro.
    private func blocks(openedBy opener: String, closedBy closers: Set<String>) -> [(title: String, lines: [String])] {
        var blocks: [(title: String, lines: [String])] = []
        var open = false
        for line in lines {
            let macro = ManText.macro(of: line)
            if macro == opener {
                blocks.append((ManText.plain(line), []))
                open = true
            } else if let macro, closers.contains(macro) {
                open = false
            } else if open {
                blocks[blocks.count - 1].lines.append(line)
            }
        }
        return blocks
    }
}

/// man(7) source read as the text it shows.
enum ManText {
    /// The macro a control line calls (`.TP`, `.SS`), or nil for a text line.
    static func macro(of line: String) -> String? {
        guard line.hasPrefix(".") else { return nil }
        return line.split(whereSeparator: \.isWhitespace).first.map(String.init)
    }

    /// The words shown by `line`, without its macro name, quotes and font changes, `\-` as `-`.
    static func plain(_ line: String) -> String {
        var characters = Array(line)[...]
        if macro(of: line) != nil { characters = characters.drop { !$0.isWhitespace } }
        var text = ""
        while let character = characters.popFirst() {
            switch character {
            case "\"": continue
            case "\\": text += escape(&characters)
            default: text.append(character)
            }
        }
        return text.trimmingCharacters(in: .whitespaces)
    }

    /// The text of the escape sequence after a backslash, consumed from `characters`.
    private static func escape(_ characters: inout ArraySlice<Character>) -> String {
        guard let kind = characters.popFirst() else { return "" }
        switch kind {
        case "-": return "-"
        case "e": return "\\"
        case "f", "*": skipEscapeArgument(&characters); return ""
        case "(": characters = characters.dropFirst(2); return " "
        case "~", " ": return " "
        default: return ""  // \& \% \c \: and other zero-width escapes
        }
    }

    /// Drops the font or string name after `\f` or `\*`: one character, `(xx` or `[name]`.
    private static func skipEscapeArgument(_ characters: inout ArraySlice<Character>) {
        switch characters.popFirst() {
        case "(": characters = characters.dropFirst(2)
        case "[": characters = characters.drop { $0 != "]" }.dropFirst()
        default: break
        }
    }

    /// The option names written in `text`: words such as `-p` and `--paste-once`.
    static func optionNames(in text: String) -> Set<String> {
        let words = text.split { !($0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-")) }
        return Set(words.map(String.init).filter { word in
            let name = word.drop { $0 == "-" }
            let dashes = word.count - name.count
            return (dashes == 1 || dashes == 2) && name.first?.isLetter == true
        })
    }

    /// The words of `text`, split at white space.
    static func words(_ text: String) -> [String] {
        text.split(whereSeparator: \.isWhitespace).map(String.init)
    }
}

/// How a page documents a tool, compared with the tool's `--help`. The page documents each
/// subcommand in a subsection `.SS TOOL SUBCOMMAND ...` under COMMANDS whose title shows its
/// options; each option in a `.TP` paragraph of that subsection or of OPTIONS (options several
/// subcommands share) whose tag names it by every name; and each subcommand in SYNOPSIS.
struct ManPageAudit {
    let tool: String
    let help: CommandHelp
    let page: ManPage

    /// Every disagreement, each a sentence that names the command and the option.
    var problems: [String] {
        subsectionProblems + optionParagraphProblems + optionsSectionProblems + synopsisProblems
    }

    /// A command as typed (`pb copy`) and what `--help` says about it.
    private typealias Command = (usage: String, help: CommandHelp)

    private var subcommands: [Command] {
        help.runnableSubcommands.map { ("\(tool) \($0.commandName)", $0) }
    }

    /// The commands whose options the page documents: the subcommands, and the tool itself.
    private var commands: [Command] { [(tool, help)] + subcommands }

    private var optionsSection: [String] { page.section("OPTIONS") }

    /// The subsection documenting `usage`: the one whose title starts with its words.
    private func subsection(for usage: String) -> (title: String, lines: [String])? {
        let words = ManText.words(usage)
        return page.subsections.first { ManText.words($0.title).starts(with: words) }
    }

    /// Each subcommand has a subsection whose title shows its options and no others, and each
    /// subsection titled like a subcommand is one.
    private var subsectionProblems: [String] {
        var problems: [String] = []
        for (usage, command) in subcommands {
            guard let subsection = subsection(for: usage) else {
                problems.append("`\(usage)` is not documented: add a subsection `.SS \(usage) ...` under COMMANDS")
                continue
            }
            problems += usageProblems(shown: ManText.optionNames(in: subsection.title), of: usage, command,
                                      place: "the title `.SS \(subsection.title)`")
        }
        if !subcommands.isEmpty {
            let known = Set(subcommands.map(\.usage))
            for subsection in page.subsections {
                let words = ManText.words(subsection.title)
                if words.first == tool, words.count > 1, !known.contains("\(tool) \(words[1])") {
                    problems.append("`.SS \(subsection.title)` documents `\(tool) \(words[1])`, which `\(tool) --help` does not list")
                }
            }
        }
        return problems
    }

    /// Each option of each command has a `.TP` paragraph in the command's subsection or in
    /// OPTIONS that gives the default `--help` shows, and the paragraphs of a subsection describe
    /// only options of its command.
    private var optionParagraphProblems: [String] {
        var problems: [String] = []
        for (usage, command) in commands {
            let own = usage == tool ? [] : ManPage.paragraphs(in: subsection(for: usage)?.lines ?? [])
            let paragraphs = own + ManPage.paragraphs(in: optionsSection)
            for option in command.options {
                guard let paragraph = paragraphs.first(where: { ManText.optionNames(in: $0.tag).isSuperset(of: option.names) }) else {
                    let place = usage == tool ? "OPTIONS" : "`.SS \(usage)` or OPTIONS"
                    problems.append("`\(usage) \(option.label)` is not documented: no .TP paragraph in \(place) names it "
                                    + "(--help: \"\(option.abstract)\")")
                    continue
                }
                if let problem = defaultProblem(of: option, in: paragraph.text, usage: usage) { problems.append(problem) }
            }
            let names = Set(command.options.flatMap(\.names))
            for tag in own.map(\.tag) {
                for name in ManText.optionNames(in: tag).subtracting(names).sorted() {
                    problems.append("a .TP paragraph of `.SS \(usage)` documents `\(name)`, which `\(usage) --help` does not list")
                }
            }
        }
        return problems
    }

    /// What is wrong with how the paragraph `text` gives the default of `option`: nothing when
    /// `--help` shows none, or the paragraph says `(default: VALUE)` as `--help` does (a whole
    /// number may leave out `.0`).
    private func defaultProblem(of option: CommandOption, in text: String, usage: String) -> String? {
        guard let value = option.defaultValue else { return nil }
        var spellings = [value]
        if let number = Double(value), number == number.rounded(), abs(number) < 1e15 { spellings.append(String(Int(number))) }
        if spellings.contains(where: { text.contains("(default: \($0))") }) { return nil }
        return "the paragraph of `\(usage) \(option.label)` does not say `(default: \(value))` as --help does"
    }

    /// The paragraphs of OPTIONS describe only options some command has.
    private var optionsSectionProblems: [String] {
        let names = Set(commands.flatMap { $0.help.options.flatMap(\.names) })
        return ManPage.paragraphs(in: optionsSection).flatMap { paragraph in
            ManText.optionNames(in: paragraph.tag).subtracting(names).sorted().map { name in
                "a .TP paragraph of OPTIONS documents `\(name)`, which no `\(tool)` command has"
            }
        }
    }

    /// SYNOPSIS shows every subcommand (or the tool itself) with each of its options, and only those.
    private var synopsisProblems: [String] {
        var problems: [String] = []
        var shown: [String: Set<String>] = [:]
        let described = subcommands.isEmpty ? [(tool, help)] : subcommands
        for usage in page.synopsisUsages {
            let words = ManText.words(usage)
            let typed = subcommands.isEmpty ? words.prefix(1) : words.prefix(2)
            let command = typed.joined(separator: " ")
            guard described.contains(where: { $0.usage == command }) else {
                problems.append("SYNOPSIS shows `\(command)`, which `\(tool) --help` does not list")
                continue
            }
            shown[command, default: []].formUnion(ManText.optionNames(in: usage))
        }
        for (usage, command) in described {
            guard let names = shown[usage] else {
                problems.append("SYNOPSIS does not show `\(usage)`")
                continue
            }
            problems += usageProblems(shown: names, of: usage, command, place: "SYNOPSIS")
        }
        return problems
    }

    /// What is wrong with a usage of `command` at `place` that shows the options `names`: an
    /// option it leaves out (`-h` and `--version` may be), or a name the command does not have.
    private func usageProblems(shown names: Set<String>, of usage: String, _ command: CommandHelp, place: String) -> [String] {
        let missing = command.options.filter { !$0.isStandard && names.isDisjoint(with: $0.names) }
            .map { "\(place) does not show `\(usage) \($0.label)`" }
        let unknown = names.subtracting(command.options.flatMap(\.names)).sorted()
            .map { "\(place) shows `\(usage) \($0)`, which `\(usage) --help` does not list" }
        return missing + unknown
    }
}

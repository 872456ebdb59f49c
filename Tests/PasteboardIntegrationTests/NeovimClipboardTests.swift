import Foundation
import XCTest

/// The README's Neovim clipboard provider (`vim.g.clipboard` running `pb`), read from the README
/// and run by Debian's `nvim --headless` against this test's daemon: yanks into `+` and `*` land
/// on the `general` and `primary` pasteboards, and puts from them insert what `pb copy` copied,
/// linewise or charwise by Neovim's own rule.
final class NeovimClipboardTests: IntegrationTestCase {
    /// pb, the library and the protocol against a daemon: the server runs in this process.
    override class var daemonRunsInProcess: Bool { true }

    private var neovim = ""
    private var configuration = ""

    /// The README's block this test runs.
    private static func readmeBlock() throws -> String {
        try ReadmeCodeBlock.text(language: "lua", inSection: "## Editors and tmux")
    }

    override func setUpWithError() throws {
        guard let neovim = executableInPath("nvim") else { throw XCTSkip("nvim is not installed (apt-get install neovim; .ci/run installs it)") }
        self.neovim = neovim
        try super.setUpWithError()
        configuration = sandbox.path("init.lua")
        try Self.readmeBlock().write(toFile: configuration, atomically: true, encoding: .utf8)
    }

    /// What one headless Neovim left behind: the file it edited and the messages it printed.
    private struct Edit {
        let text: String
        let messages: String
    }

    /// Opens a file holding `text` in `nvim --headless` with the README's configuration, runs
    /// each of `commands` (Ex commands, `normal! …` for keys), writes the file and quits.
    @discardableResult
    private func edit(_ text: String, _ commands: String...) throws -> Edit {
        let file = sandbox.path("buffer-\(UUID().uuidString.prefix(8)).txt")
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let arguments = ["--headless", "-u", configuration, "-i", "NONE", "-n", file]
            + commands.flatMap { ["-c", $0] } + ["-c", "wq"]
        let editor = try start(neovim, arguments, environment: sandbox.environmentWithToolsOnPath())
        let status = try XCTUnwrap(editor.waitForExit(timeout: 60), "nvim \(arguments.joined(separator: " ")) did not finish")
        let messages = (try String(contentsOfFile: editor.stdoutPath, encoding: .utf8)) + editor.stderrLines.joined(separator: "\n")
        XCTAssertEqual(status, 0, "nvim \(commands): \(messages)")
        return Edit(text: try String(contentsOfFile: file, encoding: .utf8), messages: messages)
    }

    func testYanksIntoPlusAndStarLandOnTheGeneralAndPrimaryPasteboards() throws {
        try edit("first line\nsecond line\n", #"normal! gg"+yy"#, #"normal! j0"*yiw"#)
        XCTAssertEqual(try pbOK("paste").stdoutText, "first line\n", "a linewise yank is copied with its final newline")
        XCTAssertEqual(try pbOK("paste", "-p", "primary").stdoutText, "second", "a charwise yank is copied as it is")
        XCTAssertEqual(try representations(), ["public.utf8-plain-text"])
        XCTAssertEqual(try representations("primary"), ["public.utf8-plain-text"])
    }

    func testPutsFromPlusAndStarInsertWhatPbCopiedCharwiseOrLinewise() throws {
        try pbOK("copy", stdin: Data("inserted".utf8))
        try pbOK("copy", "-p", "primary", stdin: Data("line from primary\n".utf8))
        let edit = try edit("ab\n", #"normal! gg0"+p"#, #"normal! "*p"#)
        XCTAssertEqual(edit.text, "ainsertedb\nline from primary\n",
                       "text without a final newline goes inside the line, text with one below it as a line")
        try pbOK("copy", stdin: Data("one\ntwo".utf8))
        XCTAssertEqual(try self.edit("ab\n", #"normal! gg0"+p"#).text, "aone\ntwob\n", "several lines without a final newline are still charwise")
    }

    func testALineYankedInOneNeovimIsPutAsALineInAnother() throws {
        try edit("keep this line\nnot this one\n", #"normal! gg"+yy"#)
        XCTAssertEqual(try edit("top\nbottom\n", #"normal! G"+P"#).text, "top\nkeep this line\nbottom\n")
    }

    func testAYankThatStartsLikeAFileSignatureStaysText() throws {
        try edit("%PDF-1.7 is where this line starts\n", #"normal! gg"+yy"#)
        XCTAssertEqual(try representations(), ["public.utf8-plain-text"], "declared as text, not sniffed as a PDF")
        XCTAssertEqual(try edit("x\n", #"normal! "+p"#).text, "x\n%PDF-1.7 is where this line starts\n")
    }

    func testAPutFromAnEmptyPasteboardChangesNothingAndSaysWhy() throws {
        let edit = try edit("unchanged\n", #"normal! gg0"+p"#)
        XCTAssertEqual(edit.text, "unchanged\n")
        XCTAssertTrue(edit.messages.contains("clipboard: error: pb:"), "Neovim shows pb's message: \(edit.messages)")
        XCTAssertTrue(edit.messages.contains("E353"), "and that the register is empty: \(edit.messages)")
    }

    func testAnImageOnThePasteboardIsNotPutAsBytes() throws {
        try pbOK("copy", "-t", "public.png", stdin: PNGFixture.make(width: 2, height: 2))
        XCTAssertEqual(try edit("unchanged\n", #"normal! gg0"+p"#).text, "unchanged\n")
    }

    func testPb1ShowsTheReadmesConfiguration() throws {
        XCTAssertTrue(try ManPage("pb.1").examples(inSection: "EXAMPLES").contains(Self.readmeBlock()),
                      "pb.1's EXAMPLES shows the README's init.lua as it is")
    }
}

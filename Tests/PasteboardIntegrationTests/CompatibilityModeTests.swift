import TestSupport
import Foundation
import XCTest

/// pb under the names of other clipboard tools (pb(1), COMPATIBILITY): the same shell script
/// runs against the original (xclip and xsel on the test's own Xvfb, wl-copy and wl-paste on
/// its own headless sway) and against pb linked under that name by `pb install-links`, talking
/// to a real pasteboardd with no display, and what they print (stderr included) and their exit
/// statuses must be the same. The type lists are compared apart (their order and X11 plumbing
/// may differ, pb(1) says so). pbcopy and pbpaste have no original here: their tests check the
/// behaviour pbcopy(1) documents.
final class CompatibilityModeTests: IntegrationTestCase {
    /// pb, the library and the protocol against a daemon: the server runs in this process.
    override class var daemonRunsInProcess: Bool { true }

    private var xserver: XvfbServer?
    private var sway: HeadlessSway?

    override func tearDown() {
        // The originals' background servers end with their display.
        xserver?.stop()
        sway?.stop()
        super.tearDown()
    }

    /// The directory where `pb install-links` made every link.
    private func links() throws -> String {
        try installedLinks()
    }

    /// Runs `script` with `bash -c` in the sandbox, the links first in PATH, against this test's daemon.
    private func runOurs(_ script: String) throws -> ProcessResult {
        var environment = sandbox.environment()
        environment["PATH"] = try links() + ":" + Binaries.directory.path + ":/usr/bin:/bin"
        environment["WORK"] = sandbox.root.path
        return try runTool("/bin/bash", ["-c", Self.closingInherited + script], environment: environment, in: sandbox)
    }

    /// Runs `script` with `bash -c` in the sandbox against the real X11 tools on a new Xvfb.
    private func runOnX11(_ script: String) throws -> ProcessResult {
        for tool in ["/usr/bin/xclip", "/usr/bin/xsel"] where !FileManager.default.isExecutableFile(atPath: tool) {
            throw XCTSkip("\(tool) is not installed (.ci/run installs xclip and xsel)")
        }
        let server = try XvfbServer(sandbox: sandbox)
        xserver = server
        var environment = sandbox.environment()
        environment["PATH"] = "/usr/bin:/bin"
        environment["DISPLAY"] = server.display
        environment["WORK"] = sandbox.root.path
        // The originals race with themselves (xsel forks before its child owns the selection,
        // and an `xsel -a` can wait forever for an owner that already left): a run that hangs
        // is stopped and the comparison skipped, never left to hang the suite.
        let result = try runTool("/usr/bin/timeout", ["-k", "5", String(Self.originalRunSeconds), "/bin/bash", "-c", Self.closingInherited + script],
                                 environment: environment, in: sandbox)
        if result.status == 124 || result.status == 137 {
            throw XCTSkip("the original X11 tool hung in its own race within \(Self.originalRunSeconds) s; nothing to compare with: \(result.stdoutText.suffix(400))")
        }
        return result
    }

    /// The most a script against the original X11 tools may take: they finish in a few
    /// seconds unless one of them hangs.
    private static let originalRunSeconds = 60

    /// Closes every descriptor but 0, 1 and 2 first (see `ShellPrelude`).
    private static let closingInherited = ShellPrelude.closingInheritedDescriptors

    /// Runs `script` with `sh -c` against the real wl-copy and wl-paste on a new headless sway.
    private func runOnWayland(_ script: String) async throws -> String {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/wl-paste") else {
            throw XCTSkip("wl-paste is not installed (.ci/run installs wl-clipboard)")
        }
        let compositor = try HeadlessSway()
        sway = compositor
        let result = try await compositor.shell(script, seconds: 60)
        return String(decoding: result.output, as: UTF8.self) + "exit \(result.status)\n"
    }

    /// `r COMMAND…` runs the command and prints its status; stderr goes with stdout.
    private static let prelude = """
        exec 2>&1
        r() { "$@"; echo " [status $?]"; }

        """

    // MARK: - Against the originals

    func testXclipScriptGivesWhatXclipGives() throws {
        let script = Self.prelude + """
            cd "$WORK"
            r xclip -o -selection clipboard
            printf 'hello\\n' | xclip -i -selection clipboard; echo "copied $?"
            r xclip -o -selection clipboard
            r xclip -o -sel c -rmlastnl
            r xclip -out -selection clip
            printf 'a\\n' | xclip -sel c -rmlastnl; r xclip -o -sel c
            printf 'one ' > f1; printf 'two' > f2
            xclip -sel clip f1 f2; r xclip -o -sel clip
            printf 'mouse' | xclip; r xclip -o
            printf 'sec' | xclip -selection secondary; r xclip -o -selection secondary
            r xclip -o -selection clipboard -t UTF8_STRING
            printf 'filtered' | xclip -f -sel c; echo; r xclip -o -sel c
            printf 'twice' | xclip -sel c -l 2
            r xclip -o -sel c
            r xclip -o -sel c
            r xclip -o -sel c
            """
        let original = try runOnX11(script)
        let ours = try runOurs(script)
        XCTAssertEqual(ours.stdoutText, original.stdoutText, "xclip mode vs xclip; ours: \(ours.stderr)\ndaemon: \(daemonLog)")
        XCTAssertEqual(ours.status, original.status)
        XCTAssertTrue(original.stdoutText.contains("Error: target STRING not available\n [status 1]"), original.stdoutText)
    }

    /// Without `-t`, `xclip -o` hands over whatever an xclip owner holds (issue 39, item 3):
    /// Debian's xclip-copyfile and xclip-pastefile move gzip data through the secondary
    /// selection, and an image copied with `-t image/png` comes back byte for byte.
    func testXclipPastesDataThatIsNotTextAsXclipDoes() throws {
        for tool in ["/usr/bin/xclip-copyfile", "/usr/bin/xclip-pastefile"] where !FileManager.default.isExecutableFile(atPath: tool) {
            throw XCTSkip("\(tool) is not installed (.ci/run installs xclip)")
        }
        let script = Self.prelude + """
            cd "$WORK"; rm -rf src out; mkdir src out
            printf 'alpha\\n' > src/a.txt; printf '\\211PNG\\r\\n\\032\\n\\000\\001pixels' > src/b.png
            xclip-copyfile src/a.txt src/b.png; echo "copied $?"
            (cd out && xclip-pastefile; echo "pasted $?"; cat a.txt; cmp b.png ../src/b.png && echo "same png")
            r xclip -o -selection secondary
            xclip -sel c -t image/png src/b.png; xclip -o -sel c | od -An -c; echo "status ${PIPESTATUS[0]}"
            printf 'zipped' | gzip -c | xclip -sel c; xclip -o -sel c | gunzip -c; echo " status ${PIPESTATUS[0]}"
            """
        let original = try runOnX11(script)
        let ours = try runOurs(script)
        XCTAssertEqual(ours.stdoutText, original.stdoutText, "xclip mode vs xclip; daemon: \(daemonLog)")
        XCTAssertEqual(ours.status, original.status)
        XCTAssertTrue(original.stdoutText.contains("pasted 0\nalpha\nsame png\n"), original.stdoutText)
        XCTAssertTrue(original.stdoutText.contains("zipped status 0"), original.stdoutText)
    }

    func testXclipTargetsListsTheTextNamesAfterTARGETS() throws {
        let script = Self.prelude + """
            printf 'hello' | xclip -sel c
            xclip -o -sel c -t TARGETS; echo "[status $?]"
            """
        let original = try runOnX11(script).stdoutText.split(separator: "\n")
        let ours = try runOurs(script).stdoutText.split(separator: "\n")
        // xclip offers TARGETS and UTF8_STRING; pb lists what the bridge would offer for text.
        for list in [original, ours] {
            XCTAssertEqual(list.first, "TARGETS", "\(list)")
            XCTAssertTrue(list.contains("UTF8_STRING"), "\(list)")
            XCTAssertEqual(list.last, "[status 0]", "\(list)")
        }
        XCTAssertEqual(Set(ours.dropFirst().dropLast()), ["UTF8_STRING", "STRING", "TEXT", "text/plain", "text/plain;charset=utf-8"])
    }

    func testXselScriptGivesWhatXselGives() throws {
        // xsel forks before its child owns the selection, so a paste right after a copy may
        // find the old content: `settle` pastes until the copy shows (at once with pb), for a
        // bounded number of tries, and prints nothing.
        let script = Self.prelude + """
            settle() { i=0; while [ "$(xsel -o "$1")" != "$2" ] && [ $i -lt 10000 ]; do i=$((i+1)); done; }
            cd "$WORK"
            r xsel -o -b
            printf 'one' | xsel -i -b; echo "copied $?"; settle -b one
            r xsel -o -b
            printf 'two' | xsel -a -b; settle -b onetwo; r xsel --output --clipboard
            r xsel -c -b
            r xsel -o -b
            printf 'p1' | xsel -p -i; settle -p p1
            printf 'p2' | xsel > old; echo "old: $(cat old)"; settle -p p2
            r xsel -o
            printf 'sec' | xsel -s -i; settle -s sec; r xsel -s -o
            r xsel -k
            r xsel --verbose --output --secondary
            """
        let ours = try runOurs(script)
        XCTAssertEqual(ours.status, 0, "xsel mode: \(ours.stdoutText)")
        let original = try runOnX11(script)
        XCTAssertEqual(ours.stdoutText, original.stdoutText, "xsel mode vs xsel; ours: \(ours.stderr)\ndaemon: \(daemonLog)")
        XCTAssertEqual(ours.status, original.status)
    }

    /// xsel 1.2.0 splits `-bi` into `-b -i` before it reads its options (issue 39, item 1):
    /// aliases, editor configurations and tmux bindings use the clusters.
    func testXselGroupedOptionsMeanWhatXselMakesOfThem() throws {
        let script = Self.prelude + """
            settle() { i=0; while [ "$(xsel -o "$1")" != "$2" ] && [ $i -lt 10000 ]; do i=$((i+1)); done; }
            printf 'one' | xsel -bi; echo "copied $?"; settle -b one
            r xsel -ob
            r xsel -bo
            printf 'two' | xsel -ba; settle -b onetwo; r xsel -bov
            printf 'three' | xsel -ib; settle -b three; r xsel -o -b
            printf 'sec' | xsel -si; settle -s sec; r xsel -so
            xsel -bc; r xsel -bo
            printf 'pri' | xsel -pi; settle -p pri; r xsel -po
            """
        let ours = try runOurs(script)
        XCTAssertEqual(ours.status, 0, "xsel mode: \(ours.stdoutText)")
        let original = try runOnX11(script)
        XCTAssertEqual(ours.stdoutText, original.stdoutText, "xsel mode vs xsel; daemon: \(daemonLog)")
        XCTAssertTrue(original.stdoutText.contains("onetwo [status 0]"), original.stdoutText)
    }

    /// The options real consumers pass that the modes refused (issue 39, item 5): `xclip
    /// -display`/`-d`, `xclip -noutf8`, `xsel --display`, `xsel -l`, and `xsel -t` on a copy,
    /// whose selection is gone that many milliseconds later (xsel leaves then: with `-n`, in the
    /// foreground, so the script waits for that without pasting from an owner that is leaving).
    func testX11OptionsConsumersPassDoWhatTheOriginalsDo() throws {
        let script = Self.prelude + """
            settle() { i=0; while [ "$(xsel -o "$1")" != "$2" ] && [ $i -lt 10000 ]; do i=$((i+1)); done; }
            printf 'by display' | xclip -d "${DISPLAY:-:0}" -sel c; r xclip -display "${DISPLAY:-:0}" -o -sel c
            printf 'caf\\303\\251' | xclip -noutf8 -sel c; r xclip -o -noutf8 -sel c; r xclip -o -sel c
            r xsel --display "${DISPLAY:-:0}" -bo
            r xsel -l "$WORK/xsel.log" -bo
            printf 'for a while' | xsel -n -bi -t 300; echo "left $?"; r xsel -bo
            printf 'kept' | xsel -bi -t 0; settle -b kept; r xsel -bo
            """
        let original = try runOnX11(script)
        let ours = try runOurs(script)
        XCTAssertEqual(ours.stdoutText, original.stdoutText, "the modes vs xclip and xsel; daemon: \(daemonLog)")
        XCTAssertTrue(original.stdoutText.contains("left 0\n [status 0]\n"), original.stdoutText)
    }

    /// `xsel -o -t MS` gives a paste up after MS: a source that never answers (stopped) makes it
    /// print nothing and exit 0, as xsel's timed-out request does (xsel itself then hangs in
    /// its retry for STRING, whose alarm stays blocked, so there is nothing to compare with).
    func testXselTimeoutGivesUpAPasteFromASourceThatNeverAnswers() throws {
        let directory = try links()
        let owner = try start(directory + "/xclip", ["-quiet", "-l", "1000", "-sel", "c", "/etc/hostname"])
        XCTAssertTrue(eventually { (try? self.pb("list").stdoutText.contains("lazy")) == true }, "the source never copied")
        owner.signal(SIGSTOP)
        let paste = try runOurs("xsel -bo -t 300")
        owner.signal(SIGCONT)
        XCTAssertEqual(paste.status, 0, paste.stderr)
        XCTAssertEqual(paste.stdoutText, "")
        XCTAssertEqual(paste.stderr, "")
        owner.signal(SIGTERM)
        XCTAssertNotNil(owner.waitForExit())
    }

    /// `-s SEAT` (wl-clipboard) picks a seat; the daemon has one clipboard for all of them.
    func testWlClipboardSeatOptionGivesWhatWlClipboardGives() async throws {
        let script = Self.prelude + """
            wl-copy -s seat0 on the seat; r wl-paste -s seat0
            r wl-paste --seat=seat0 -n
            """
        let original = try await runOnWayland(script)
        let oursResult = try runOurs(script)
        XCTAssertEqual(oursResult.stdoutText + "exit \(oursResult.status)\n", original)
        XCTAssertTrue(original.contains("on the seat\n [status 0]"), original)
    }

    func testWlClipboardScriptGivesWhatWlClipboardGives() async throws {
        // Not `wl-copy -o`: on sway its one paste sometimes goes to someone else first, so the
        // original's output varies from run to run (testPasteOnceDataIsGoneAfterItsPaste… covers ours).
        let script = Self.prelude + """
            r wl-paste
            r wl-paste -l
            wl-copy hello world; echo "copied $?"
            r wl-paste
            r wl-paste -n
            r wl-paste -t text
            r wl-paste --type=TEXT
            r wl-paste -t text/html
            printf 'a\\n' | wl-copy; r wl-paste
            printf 'x\\n\\n' | wl-copy -n; r wl-paste -n
            wl-copy -p mouse; r wl-paste -p; r wl-paste --primary -n
            wl-copy -c; r wl-paste
            wl-copy -- -dashed; r wl-paste
            wl-copy -c; r wl-paste -l
            """
        let original = try await runOnWayland(script)
        let oursResult = try runOurs(script)
        let ours = oursResult.stdoutText + "exit \(oursResult.status)\n"
        XCTAssertEqual(ours, original, "wl-clipboard modes vs wl-clipboard; daemon: \(daemonLog)")
        XCTAssertTrue(original.contains("No selection\n [status 1]"), original)
    }

    /// `wl-paste -l` lists what wl-copy offers in wl-copy's order (issue 39, item 7): a type's
    /// MIME type, then for text wl-copy's generic names of plain text.
    func testWlPasteListsTheTypesWlCopyOffersInItsOrder() async throws {
        let script = """
            wl-copy hello; wl-paste -l; echo
            wl-copy -t text/html '<b>bold</b>'; wl-paste -l; echo
            wl-copy -t application/json '{}'; wl-paste -l; echo
            printf '\\211PNG\\r\\n\\032\\n\\000pixels' | wl-copy; wl-paste --list-types
            """
        let original = try await runOnWayland(script)
        let ours = try runOurs(script)
        XCTAssertEqual(ours.stdoutText + "exit \(ours.status)\n", original)
        XCTAssertTrue(original.hasPrefix("text/plain\ntext/plain;charset=utf-8\nTEXT\nSTRING\nUTF8_STRING\n\ntext/html\ntext/plain\n"), original)
    }

    /// `wl-paste --watch` ends on SIGTERM as wl-paste does, killed by it (status 143 in the
    /// shell), where it exited 0 (issue 39, item 7).
    func testWlPasteWatchEndsOnSIGTERMAsWlPasteDoes() async throws {
        let script = """
            f=$(mktemp); wl-copy watched
            wl-paste -w sh -c "cat > /dev/null; echo ran >> $f" & watcher=$!
            i=0; until [ -s "$f" ] || [ $i -ge 100000 ]; do i=$((i+1)); done
            kill $watcher; wait $watcher; echo "watch ended $?"; cat "$f"; rm -f "$f"
            """
        let original = try await runOnWayland(script)
        let ours = try runOurs(script)
        XCTAssertEqual(ours.stdoutText + "exit \(ours.status)\n", original)
        XCTAssertTrue(original.hasPrefix("watch ended 143\nran\n"), original)
    }

    /// `--version` prints the original's first line where the original prints it (xclip on
    /// stderr, as its help), so a script that reads the version reads one (issue 39, item 7);
    /// what follows says it is pb.
    func testVersionTextsBeginAsTheOriginalsDo() async throws {
        let x11 = Self.prelude + """
            xclip -version 2>&1 >/dev/null | head -n 1; echo "on stdout: $(xclip -version 2>/dev/null | wc -c)"
            echo "help on stdout: $(xclip -h 2>/dev/null | wc -c)"
            xsel --version | cut -d' ' -f1-3
            """
        let original = try runOnX11(x11)
        let ours = try runOurs(x11)
        XCTAssertEqual(ours.stdoutText, original.stdoutText)
        XCTAssertEqual(original.stdoutText, "xclip version 0.13\non stdout: 0\nhelp on stdout: 0\nxsel version 1.2.0\n")
        let wayland = "wl-copy --version | head -n 1; wl-paste -v | head -n 1"
        let originalWayland = try await runOnWayland(wayland)
        let oursWayland = try runOurs(wayland)
        XCTAssertEqual(oursWayland.stdoutText + "exit \(oursWayland.status)\n", originalWayland)
        for command in ["xclip -version 2>&1", "xsel --version", "wl-copy -v", "wl-paste --version"] {
            XCTAssertTrue(try runOurs(command).stdoutText.contains(" compatibility mode; see pb(1), COMPATIBILITY"), command)
        }
    }

    // MARK: - Behaviour of our own

    func testPbcopyAndPbpasteFollowTheirManual() throws {
        let result = try runOurs(Self.prelude + """
            r pbpaste
            printf 'plain' | pbcopy; r pbpaste
            printf '{\\\\rtf1 bold}' | pbcopy; r pbpaste -Prefer rtf; r pb list
            printf 'found' | pbcopy -pboard find; r pbpaste -pboard find; r pbpaste -pboard general
            r pbpaste -pboard clipboard
            r pbcopy -x
            printf 'operands' | pbcopy w; r pbpaste r
            """)
        let lines = result.stdoutText.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines[0], " [status 0]", "an empty pasteboard pastes nothing, status 0")
        XCTAssertEqual(lines[1], "plain [status 0]")
        XCTAssertEqual(lines[2], "{\\rtf1 bold} [status 0]")
        XCTAssertTrue(lines.contains { $0.contains("text/rtf") }, "RTF input is copied as RTF: \(lines)")
        XCTAssertTrue(lines.contains("found [status 0]"), "\(lines)")
        XCTAssertTrue(lines.contains { $0.contains("-pboard takes general, ruler, find or font, not 'clipboard'") }, "\(lines)")
        XCTAssertTrue(lines.contains { $0.contains("pbcopy: option '-x' is not supported") }, "\(lines)")
        XCTAssertEqual(lines.last, "operands [status 0]", "pyperclip's operands are ignored, as on macOS")
        XCTAssertEqual(result.status, 0)
    }

    func testEveryModeNamesAnOptionItDoesNotSupportAndKeepsTheClipboard() throws {
        try pbOK("copy", stdin: Data("kept".utf8))
        try pbOK("copy", "-p", "primary", stdin: Data("kept".utf8))
        for (command, option) in [("echo lost | xclip -sel buffer-cut", "-sel buffer-cut"), ("echo lost | xclip -s c", "-s"),
                                  ("echo lost | xsel -bix", "-x"), ("echo lost | xsel -x", "-x"),
                                  ("echo lost | wl-copy --zap", "--zap"), ("wl-paste -z", "-z"),
                                  ("pbpaste -Q", "-Q"), ("echo lost | xclip -sel c -l -1", "-l"),
                                  ("echo lost | xsel -b -t 1e19", "-t"), ("echo lost | xsel -b -t inf", "-t"), ("echo lost | xsel -bi -t -5", "-t"),
                                  ("echo lost | xsel -bit 10000000000001", "-t")] {
            let result = try runOurs(command)
            XCTAssertEqual(result.status, 1, command)
            XCTAssertTrue(result.stderr.contains("'\(option)'") || result.stderr.contains("\(option) takes"), "\(command): \(result.stderr)")
        }
        XCTAssertEqual(try pbOK("paste").stdoutText, "kept", "a refused command changed the clipboard")
        XCTAssertEqual(try pbOK("paste", "-p", "primary").stdoutText, "kept")
    }

    /// What every mode reads alike (one driver, `CompatibilityMode.run`): help and version
    /// print and exit 0 without touching the clipboard, the first of them given wins, a mistake
    /// beside them is still reported, and a word where the tool takes none is an unexpected
    /// argument in the tool's words.
    func testEveryModeReadsHelpVersionAndStrayWordsAlike() throws {
        try pbOK("copy", stdin: Data("kept".utf8))
        let helps = [("pbcopy -help", "usage: pbcopy"), ("pbpaste -help", "usage: pbpaste"), ("xclip -h 2>&1", "Usage: xclip"),
                     ("xsel --help", "Usage: xsel"), ("wl-copy -h", "\twl-copy [options]"), ("wl-paste --help", "\twl-paste [options]")]
        for (command, usage) in helps {
            let result = try runOurs(command)
            XCTAssertEqual(result.status, 0, command)
            XCTAssertTrue(result.stdoutText.contains(usage), "\(command): \(result.stdoutText)")
        }
        for (command, first) in [("xclip -version -h 2>&1", "xclip version 0.13"), ("xsel --version --help", "xsel version 1.2.0 (pb "),
                                 ("wl-copy -vh", "wl-clipboard 2.1.0"), ("wl-paste --version -h", "wl-clipboard 2.1.0")] {
            let result = try runOurs(command)
            XCTAssertEqual(result.status, 0, command)
            XCTAssertTrue(result.stdoutText.hasPrefix(first), "\(command): \(result.stdoutText)")
            XCTAssertTrue(result.stdoutText.contains(" compatibility mode; see pb(1), COMPATIBILITY"), "\(command): \(result.stdoutText)")
        }
        for (command, message) in [("xsel --help -x", "xsel: option '-x' is not supported in pb's xsel mode"),
                                   ("wl-copy -h --zap", "wl-copy: option '--zap' is not supported in pb's wl-copy mode"),
                                   ("xclip -h -o /etc/hostname", "xclip: files are read only with -i, not with -o"),
                                   ("xsel word", "xsel: unexpected argument: word (see 'xsel --help')"),
                                   ("wl-paste word", "wl-paste: unexpected argument: word (see 'wl-paste --help')")] {
            let result = try runOurs(command)
            XCTAssertEqual(result.status, 1, command)
            XCTAssertEqual(result.stdoutText, "", command)
            XCTAssertTrue(result.stderr.contains(message), "\(command): \(result.stderr)")
        }
        XCTAssertEqual(try pbOK("paste").stdoutText, "kept", "help, version or a refused command changed the clipboard")
    }

    func testAnUnreachableDaemonIsTheToolsFailure() throws {
        stopDaemon()
        for command in ["xclip -o", "echo x | xsel -i", "wl-paste", "echo x | wl-copy", "pbpaste"] {
            let result = try runOurs(command)
            XCTAssertEqual(result.status, 1, command)
            XCTAssertTrue(result.stderr.contains("cannot reach pasteboardd at \(sandbox.socketPath)"), "\(command): \(result.stderr)")
        }
    }

    func testForegroundCopiesStayUntilReplaced() throws {
        let directory = try links()
        for (tool, arguments) in [("wl-copy", ["-f", "first"]), ("xclip", ["-quiet", "-sel", "c", "/etc/hostname"])] {
            let copier = try start(directory + "/" + tool, arguments)
            XCTAssertTrue(eventually { (try? self.pb("list").stdoutText.contains("item 0")) == true }, "\(tool) did not copy")
            XCTAssertNil(copier.waitForExit(timeout: 0.5), "\(tool) in the foreground left before it was replaced")
            try pbOK("copy", stdin: Data("replaced".utf8))
            XCTAssertEqual(copier.waitForExit(), 0, "\(tool) did not leave once replaced")
            try pbOK("clear")
        }
    }

    func testWlPasteWatchSetsClipboardState() throws {
        let directory = try links()
        let output = sandbox.path("watched")
        try pbOK("clear")
        let watcher = try start(directory + "/wl-paste", ["-w", "/bin/sh", "-c", "echo \"$CLIPBOARD_STATE:$(cat)\" >> \(output)"])
        func lines() -> [String] { ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init) }
        XCTAssertTrue(eventually { lines().count == 1 })
        try pbOK("copy", stdin: Data("one".utf8))
        XCTAssertTrue(eventually { lines().count == 2 })
        try pbOK("copy", "--sensitive", stdin: Data("pw".utf8))
        XCTAssertTrue(eventually { lines().count == 3 })
        try pbOK("clear")
        XCTAssertTrue(eventually { lines().count == 4 })
        XCTAssertEqual(lines(), ["nil:", "data:one", "sensitive:pw", "clear:"])
        watcher.signal(SIGTERM)
        XCTAssertEqual(watcher.waitForExit(), SIGTERM, "killed by SIGTERM, as wl-paste")
        XCTAssertEqual(watcher.process.terminationReason, .uncaughtSignal)
    }

    func testPasteOnceDataIsGoneAfterItsPasteAndAfterASignal() throws {
        let directory = try links()
        let copied = try runOurs("echo secret | wl-copy -o --sensitive")
        XCTAssertEqual(copied.status, 0, copied.stderr)
        XCTAssertEqual(try runOurs("wl-paste -l").stdoutText.split(separator: "\n").last, "x-kde-passwordManagerHint")
        XCTAssertEqual(try runOurs("wl-paste").stdoutText, "secret\n\n")
        XCTAssertTrue(eventually { (try? self.runOurs("wl-paste").stderr) == "No selection\n" })
        // In the foreground, SIGTERM clears what was not pasted yet, and the daemon keeps none of it.
        let server = try start(directory + "/xclip", ["-quiet", "-l", "3", "-sel", "c", "/etc/hostname"])
        XCTAssertTrue(eventually { (try? self.pb("list").stdoutText.contains("lazy")) == true })
        server.signal(SIGTERM)
        XCTAssertNotNil(server.waitForExit())
        XCTAssertTrue(eventually { (try? self.pb("list").stdoutText.contains("(empty)")) == true }, "the pasteboard was not cleared")
    }

    /// The background servers of paste-once and paste-N (`wl-copy -o`, `xclip -l 1`, Debian's
    /// xclip-copyfile) end on SIGTERM and SIGINT, clearing what they served, as pb(1) says
    /// (issue 39, item 4). They are started from this test through Foundation's `Process`, whose
    /// children inherit a thread's blocked signals: the server must not.
    func testBackgroundPasteServersEndOnSIGTERMAndSIGINT() throws {
        let file = sandbox.path("archived")
        try "in the archive\n".write(toFile: file, atomically: true, encoding: .utf8)
        var runs: [(command: String, signal: Int32, pasteboard: String)] = [
            ("echo once | wl-copy -o", SIGTERM, "general"), ("echo once | wl-copy -o -p", SIGINT, "primary"),
            ("echo twice | xclip -l 2 -sel c", SIGINT, "general"), ("echo twice | xclip -l 2 -sel c", SIGTERM, "general"),
        ]
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/xclip-copyfile") {
            runs.append(("xclip-copyfile \"$WORK/archived\"", SIGTERM, "secondary"))
        }
        for run in runs {
            let copied = try runOurs(run.command)
            XCTAssertEqual(copied.status, 0, "\(run.command): \(copied.stderr)")
            let servers = ProcessTree.processes(withArgument: "--serve-pastes-in-background", environment: "PASTEBOARD_SOCKET=\(sandbox.socketPath)")
            XCTAssertEqual(servers.count, 1, "\(run.command) left \(servers.count) servers")
            guard let server = servers.first else { continue }
            kill(server, run.signal)
            XCTAssertTrue(eventually { ProcessTree.hasEnded(server) }, "\(run.command): the server did not end on signal \(run.signal)")
            XCTAssertTrue(eventually { (try? self.pb("list", "-p", run.pasteboard).stdoutText.hasSuffix("(empty)\n")) == true },
                          "\(run.command): signal \(run.signal) did not clear \(run.pasteboard)")
        }
    }

    /// A paste-once source killed with SIGKILL leaves an item no paste can read: the modes read
    /// it as the originals read a selection whose owner died, empty (issue 39, item 4): `xsel
    /// -o` prints nothing and exits 0, xclip prints its error for an empty selection, as do
    /// wl-paste and pbpaste (which exits 0).
    func testAKilledSourcesItemReadsAsAnEmptySelection() throws {
        let script = Self.prelude + """
            owned() { i=0; until xclip -o -sel c -t TARGETS >/dev/null 2>&1 || [ $i -ge 10000 ]; do i=$((i+1)); done; }
            unowned() { i=0; while xclip -o -sel c -t TARGETS >/dev/null 2>&1 && [ $i -lt 10000 ]; do i=$((i+1)); done; }
            printf 'once' | xclip -sel c -l 1 -quiet 2>/dev/null & owner=$!
            owned
            kill -9 $owner; wait $owner 2>/dev/null
            unowned
            r xsel -bo
            r xclip -o -sel c
            r xclip -o -sel c -t TARGETS
            r xsel -bo
            """
        let original = try runOnX11(script)
        let ours = try runOurs(script)
        XCTAssertEqual(ours.stdoutText, original.stdoutText, "the modes vs xclip and xsel; daemon: \(daemonLog)")
        XCTAssertTrue(original.stdoutText.hasPrefix(" [status 0]\nError: target STRING not available\n [status 1]\n"), original.stdoutText)
        XCTAssertTrue(try pbOK("list").stdoutText.contains("(unavailable)"), "the killed source's item is still there, unavailable")
        let others = try runOurs(Self.prelude + "r pbpaste; r wl-paste; r wl-paste -l")
        XCTAssertEqual(others.stdoutText, " [status 0]\nNo selection\n [status 1]\nNo selection\n [status 1]\n")
    }

    func testInstallLinksNeverReplacesAnotherFile() throws {
        let directory = sandbox.path("bin")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try "#!/bin/sh\necho the real xclip\n".write(toFile: directory + "/xclip", atomically: true, encoding: .utf8)
        let first = try pb("install-links", directory)
        XCTAssertEqual(first.status, 1)
        XCTAssertTrue(first.stderr.contains("\(directory)/xclip exists and is not pb"), first.stderr)
        XCTAssertEqual(try String(contentsOfFile: directory + "/xclip", encoding: .utf8), "#!/bin/sh\necho the real xclip\n")
        for name in ["pbcopy", "pbpaste", "xsel", "wl-copy", "wl-paste"] {
            XCTAssertNotNil(try? FileManager.default.destinationOfSymbolicLink(atPath: directory + "/" + name), name)
        }
        let again = try pb("install-links", directory, "wl-paste")
        XCTAssertEqual(again.status, 0)
        XCTAssertEqual(again.stdoutText, "\(directory)/wl-paste is pb already\n")
        let removed = try pb("install-links", "--remove", directory)
        XCTAssertEqual(removed.status, 1, "the foreign xclip is reported")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory), ["xclip"])
        XCTAssertEqual(try pb("install-links", sandbox.path("missing")).status, 1)
        XCTAssertEqual(try pb("install-links", directory, "xclipp").status, 2)
    }

    func testTheReadmeDropInSnippetWorks() throws {
        let readme = try String(contentsOf: ManPage.directory.deletingLastPathComponent().appendingPathComponent("README.md"), encoding: .utf8)
        let section = try XCTUnwrap(readme.components(separatedBy: "### Drop-in names").dropFirst().first)
        let block = try XCTUnwrap(section.components(separatedBy: "```sh\n").dropFirst().first?.components(separatedBy: "```").first)
        var environment = sandbox.environment()
        environment["HOME"] = sandbox.path("home")
        environment["PATH"] = Binaries.directory.path + ":/usr/bin:/bin"
        let result = try runTool("/bin/sh", ["-e", "-c", block], environment: environment, in: sandbox)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdoutText.hasSuffix("\nhello\n\n"), "wl-paste adds a newline to text: \(result.stdoutText)")
    }
}

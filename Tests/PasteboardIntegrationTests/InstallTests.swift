import Foundation
import Glibc
import XCTest

/// `make install` and `make uninstall` (the Makefile at the root), on the debug programs this
/// suite runs on (`SWIFT_BUILD_DIR`): every file lands in its FHS place under PREFIX, below
/// DESTDIR, with its mode; the units start the installed programs; the installed pb starts the
/// installed daemon; a PREFIX in the home directory is where systemd, man and bash look, and
/// its shared-mime-info database tells pb the gallery's MIME type is JSON; and uninstall
/// leaves nothing of it (another package's MIME database stays, written again). The release
/// build and the Debian package are CI's (`.ci/check-package`): building release here would
/// take ten minutes.
final class InstallTests: XCTestCase {
    var sandbox: Sandbox!

    /// The package root, where the Makefile is.
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The systemd user units the tree has, as committed (Config/systemd).
    static let units = ["pasteboardd.socket", "pasteboardd.service", "pasteboard-bridge.service"]

    /// The names pb answers to as another clipboard tool, which install links to it.
    static let links = ["pbcopy", "pbpaste", "xclip", "xsel", "wl-copy", "wl-paste"]

    override func setUpWithError() throws {
        sandbox = try Sandbox()
    }

    override func tearDown() {
        sandbox?.stopAutoStartedDaemon()
        sandbox?.remove()
    }

    /// Runs `make ARGUMENTS` in the package root with `environment` (the sandbox's by default).
    private func make(_ arguments: [String], environment: [String: String]? = nil) throws -> ProcessResult {
        guard let make = executableInPath("make") else {
            throw XCTSkip("make is not installed: install Debian's make package (apt-get install make) to test make install")
        }
        return try runTool(make, ["--no-print-directory", "-C", Self.root.path] + arguments,
                           environment: environment ?? sandbox.environment(), in: sandbox)
    }

    /// Every file and symbolic link below `directory`, by its path relative to it.
    private func entries(below directory: String) -> [String: stat] {
        var found: [String: stat] = [:]
        guard let enumerator = FileManager.default.enumerator(atPath: directory) else { return found }
        for case let relative as String in enumerator {
            var info = stat()
            guard lstat(directory + "/" + relative, &info) == 0, info.st_mode & S_IFMT != S_IFDIR else { continue }
            found[relative] = info
        }
        return found
    }

    /// What `tool --generate-completion-script shell` prints.
    private func completionScript(_ tool: String, _ shell: String) throws -> Data {
        let result = try runTool(tool, ["--generate-completion-script", shell], environment: sandbox.environment(), in: sandbox)
        XCTAssertEqual(result.status, 0, result.stderr)
        return result.stdout
    }

    /// The committed unit `name` with its programs in `bindir`, as make install writes it.
    private func unit(_ name: String, startingFrom bindir: String) throws -> String {
        try String(contentsOf: Self.root.appendingPathComponent("Config/systemd/" + name), encoding: .utf8)
            .replacingOccurrences(of: "ExecStart=%h/.local/bin/", with: "ExecStart=\(bindir)/")
    }

    func testInstallPutsEveryFileInItsPlaceAndUninstallTakesThemAway() throws {
        let stage = sandbox.path("stage")
        let arguments = ["DESTDIR=" + stage, "PREFIX=/usr/local", "SWIFT_BUILD_DIR=" + Binaries.directory.path]
        let install = try make(["install"] + arguments)
        XCTAssertEqual(install.status, 0, "make install: \(install.stdoutText)\(install.stderr)")

        let prefix = stage + "/usr/local"
        var expected: [String: (mode: mode_t, content: Data?)] = [:]
        for program in ["pb", "pasteboardd", "pasteboard-bridge", "gallery"] {
            expected["bin/" + program] = (0o755, try Data(contentsOf: Binaries.url(program)))
        }
        for page in ManPageTests.pages {
            let section = page.split(separator: ".").last!
            expected["share/man/man\(section)/\(page)"] = (0o644, try Data(contentsOf: URL(fileURLWithPath: try ManPage(page).path)))
        }
        for tool in CompletionScriptTests.tools {
            // Without the #!/bin/bash ArgumentParser starts it with: bash-completion sources the file.
            let bash = try completionScript(tool, "bash")
            let sourced = bash.starts(with: Data("#!".utf8)) ? Data(bash.drop { $0 != UInt8(ascii: "\n") }.dropFirst()) : bash
            expected["share/bash-completion/completions/\(tool)"] = (0o644, sourced)
            expected["share/zsh/site-functions/_\(tool)"] = (0o644, try completionScript(tool, "zsh"))
            expected["share/fish/vendor_completions.d/\(tool).fish"] = (0o644, try completionScript(tool, "fish"))
        }
        for name in Self.units {
            expected["lib/systemd/user/" + name] = (0o644, Data(try unit(name, startingFrom: "/usr/local/bin").utf8))
        }
        for file in ["Config/types.json", "Config/gallery-types.json", "Config/pasteboardd.conf"] {
            let url = Self.root.appendingPathComponent(file)
            expected["share/pasteboard/" + url.lastPathComponent] = (0o644, try Data(contentsOf: url))
        }
        expected["share/mime/packages/pasteboard.xml"] = (0o644, try Data(contentsOf: Self.root.appendingPathComponent("Config/mime/pasteboard.xml")))
        expected["share/doc/pasteboard/README.md"] = (0o644, try Data(contentsOf: Self.root.appendingPathComponent("README.md")))
        for name in Self.links { expected["lib/pasteboard/bin/" + name] = (S_IFLNK, nil) }

        let installed = entries(below: stage)
        XCTAssertEqual(Set(installed.keys), Set(expected.keys.map { "usr/local/" + $0 }), "what make install put under DESTDIR")
        for (path, want) in expected {
            guard let info = installed["usr/local/" + path] else { continue }
            if want.mode == S_IFLNK {
                XCTAssertEqual(info.st_mode & S_IFMT, S_IFLNK, "\(path) is a symbolic link")
                XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: prefix + "/" + path), "../../../bin/pb",
                               "\(path) points at pb, relative, so the install can move")
                continue
            }
            XCTAssertEqual(info.st_mode & S_IFMT, S_IFREG, "\(path) is a regular file")
            XCTAssertEqual(info.st_mode & 0o7777, want.mode, "the mode of \(path)")
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: prefix + "/" + path)), want.content, "the content of \(path)")
        }
        for name in ["pasteboardd.service", "pasteboard-bridge.service"] {
            let text = try String(contentsOfFile: prefix + "/lib/systemd/user/" + name, encoding: .utf8)
            XCTAssertTrue(text.contains("\nExecStart=/usr/local/bin/\(name.split(separator: ".")[0])\n"),
                          "\(name) starts the installed program:\n\(text)")
        }

        // The links are the names pb itself would link (pb install-links).
        let linked = sandbox.path("linked")
        try FileManager.default.createDirectory(atPath: linked, withIntermediateDirectories: true)
        XCTAssertEqual(try runTool("pb", ["install-links", linked], environment: sandbox.environment(), in: sandbox).status, 0)
        XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: linked)), Set(Self.links))

        // The installed pb starts the daemon installed beside it, and one of its links is xclip.
        let environment = sandbox.environment(autoStart: true)
        let copy = try runTool(prefix + "/bin/pb", ["copy"], stdin: Data("installed".utf8), environment: environment, in: sandbox)
        XCTAssertEqual(copy.status, 0, copy.stderr)
        let paste = try runTool(prefix + "/lib/pasteboard/bin/xclip", ["-o", "-selection", "clipboard"], environment: environment, in: sandbox)
        XCTAssertEqual(paste.stdoutText, "installed", paste.stderr)
        let daemon = try XCTUnwrap(sandbox.autoStartedDaemon, "the installed pb started no daemon")
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(daemon)/exe"), prefix + "/bin/pasteboardd")
        XCTAssertTrue(sandbox.stopAutoStartedDaemon(), "the daemon the installed pb started did not stop on SIGTERM")

        let uninstall = try make(["uninstall"] + arguments.dropLast())
        XCTAssertEqual(uninstall.status, 0, "make uninstall: \(uninstall.stdoutText)\(uninstall.stderr)")
        XCTAssertEqual(entries(below: stage).keys.sorted(), [], "make uninstall left these")
        for own in ["share/pasteboard", "share/doc/pasteboard", "lib/pasteboard"] {
            XCTAssertFalse(FileManager.default.fileExists(atPath: prefix + "/" + own), "make uninstall left the directory \(own)")
        }
    }

    func testAnInstallInTheHomeDirectoryIsWhereSystemdManAndBashLook() throws {
        let home = sandbox.path("home")
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        let runtime = sandbox.path("runtime")
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        var environment = sandbox.environment()
        environment["HOME"] = home
        environment["XDG_RUNTIME_DIR"] = runtime
        environment["PATH"] = home + "/.local/bin:" + (environment["PATH"] ?? "/usr/bin:/bin")
        for name in ["XDG_DATA_HOME", "BASH_COMPLETION_USER_DIR", "MANPATH"] { environment.removeValue(forKey: name) }
        let arguments = ["PREFIX=" + home + "/.local", "SWIFT_BUILD_DIR=" + Binaries.directory.path]
        let install = try make(["install"] + arguments, environment: environment)
        XCTAssertEqual(install.status, 0, "make install: \(install.stdoutText)\(install.stderr)")

        // systemd's user manager reads ~/.local/share/systemd/user, not ~/.local/lib/systemd/user.
        let unitDirectory = home + "/.local/share/systemd/user"
        XCTAssertEqual(try String(contentsOfFile: unitDirectory + "/pasteboardd.service", encoding: .utf8),
                       try unit("pasteboardd.service", startingFrom: home + "/.local/bin"))
        if let analyze = executableInPath("systemd-analyze") {
            let paths = try runTool(analyze, ["--user", "unit-paths"], environment: environment, in: sandbox)
            XCTAssertTrue(paths.stdoutText.split(separator: "\n").contains(Substring(unitDirectory)), paths.stdoutText + paths.stderr)
            // With man installed, verify also checks that the pages named by Documentation= are found.
            let man = executableInPath("man") == nil ? "--man=no" : "--man=yes"
            let verify = try runTool(analyze, ["--user", "verify", man] + Self.units.map { unitDirectory + "/" + $0 },
                                     environment: environment, in: sandbox)
            XCTAssertEqual(verify.status, 0, "systemd-analyze --user verify: \(verify.stdoutText)\(verify.stderr)")
            XCTAssertEqual(verify.stdoutText + verify.stderr, "", "systemd-analyze --user verify warns")
        }
        if let man = executableInPath("man") {
            // man-db finds ~/.local/share/man from ~/.local/bin on PATH.
            let found = try runTool(man, ["-w", "pb"], environment: environment, in: sandbox)
            XCTAssertEqual(found.stdoutText, home + "/.local/share/man/man1/pb.1\n", found.stderr)
        }
        // bash-completion loads ~/.local/share/bash-completion/completions/pb when pb is first completed.
        let loader = "/usr/share/bash-completion/bash_completion"
        if FileManager.default.fileExists(atPath: loader) {
            let driver = """
                source \(loader)
                __load_completion pb || exit 1
                function=$(complete -p pb | sed -n 's/.*-F \\([^ ]*\\) .*/\\1/p')
                COMP_WORDS=(pb co); COMP_CWORD=1; COMP_LINE="pb co"; COMP_POINT=${#COMP_LINE}
                "$function" pb co pb
                printf '%s\\n' "${COMPREPLY[@]}"
                """
            let completed = try runTool("/bin/bash", ["-c", driver], environment: environment, in: sandbox)
            XCTAssertEqual(completed.stdoutText, "copy\n", "pb co<Tab> in bash: \(completed.stderr)")
        }

        // update-mime-database made the user's database, where pb finds the gallery's type is JSON.
        if executableInPath("update-mime-database") != nil {
            XCTAssertTrue(try galleryImageConformance(home + "/.local/bin/pb", environment).contains("public.json"))
        }

        let uninstall = try make(["uninstall", "PREFIX=" + home + "/.local"], environment: environment)
        XCTAssertEqual(uninstall.status, 0, "make uninstall: \(uninstall.stdoutText)\(uninstall.stderr)")
        XCTAssertEqual(entries(below: home).keys.sorted(), [], "make uninstall left these")
    }

    /// The types `pb types` says the gallery's MIME type conforms to, from its "conforms to:" line.
    private func galleryImageConformance(_ pb: String, _ environment: [String: String]) throws -> [String] {
        let types = try runTool(pb, ["types", Self.galleryImageMIMEType], environment: environment, in: sandbox)
        XCTAssertEqual(types.status, 0, types.stderr)
        let line = types.stdoutText.split(separator: "\n").first { $0.contains("conforms to:") } ?? ""
        return line.split(separator: ":", maxSplits: 1).last.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } } ?? []
    }

    /// The gallery's own MIME type, which Config/mime/pasteboard.xml declares to shared-mime-info.
    static let galleryImageMIMEType = "application/vnd.example.gallery-image+json"

    func testUninstallKeepsTheMIMEDatabaseOfOtherPackagesWithoutPasteboardsType() throws {
        guard let update = executableInPath("update-mime-database") else {
            throw XCTSkip("update-mime-database is not installed: install Debian's shared-mime-info package")
        }
        let prefix = sandbox.path("prefix")
        let packages = prefix + "/share/mime/packages"
        try FileManager.default.createDirectory(atPath: packages, withIntermediateDirectories: true)
        let other = """
            <?xml version="1.0" encoding="UTF-8"?>
            <mime-info xmlns="http://www.freedesktop.org/standards/shared-mime-info">
              <mime-type type="text/x-other-package"><sub-class-of type="text/plain"/></mime-type>
            </mime-info>

            """
        try other.write(toFile: packages + "/other.xml", atomically: true, encoding: .utf8)
        XCTAssertEqual(try runTool(update, [prefix + "/share/mime"], environment: sandbox.environment(), in: sandbox).status, 0)
        var environment = sandbox.environment()
        environment["XDG_DATA_DIRS"] = prefix + "/share"
        let arguments = ["PREFIX=" + prefix, "SWIFT_BUILD_DIR=" + Binaries.directory.path]

        let install = try make(["install"] + arguments, environment: environment)
        XCTAssertEqual(install.status, 0, "make install: \(install.stdoutText)\(install.stderr)")
        XCTAssertEqual(try galleryImageConformance(prefix + "/bin/pb", environment).prefix(1), ["public.json"])

        let uninstall = try make(["uninstall", "PREFIX=" + prefix], environment: environment)
        XCTAssertEqual(uninstall.status, 0, "make uninstall: \(uninstall.stdoutText)\(uninstall.stderr)")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: packages), ["other.xml"])
        let subclasses = try String(contentsOfFile: prefix + "/share/mime/subclasses", encoding: .utf8)
        XCTAssertEqual(subclasses, "text/x-other-package text/plain\n", "the database written again without the gallery's type")
    }

    func testARelativePrefixIsRefusedBeforeAnythingIsWritten() throws {
        let stage = sandbox.path("stage")
        for (variable, value) in [("PREFIX", "~/.local"), ("PREFIX", "usr/local"), ("DESTDIR", "stage")] {
            let destination = variable == "DESTDIR" ? [] : ["DESTDIR=" + stage]
            let install = try make(["install", variable + "=" + value, "SWIFT_BUILD_DIR=" + Binaries.directory.path] + destination)
            XCTAssertEqual(install.status, 2, "make install \(variable)=\(value)")
            XCTAssertTrue(install.stderr.contains("\(variable) must be an absolute path, not \"\(value)\""), install.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: stage), "make install \(variable)=\(value) wrote something")
            XCTAssertFalse(FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(value).path),
                           "make install \(variable)=\(value) wrote into the tree")
        }
        let uninstall = try make(["uninstall", "PREFIX=usr"])
        XCTAssertEqual(uninstall.status, 2)
        XCTAssertTrue(uninstall.stderr.contains("PREFIX must be an absolute path"), uninstall.stderr)
    }

    func testInstallingProgramsThatWereNotBuiltSaysWhatToDo() throws {
        let empty = sandbox.path("empty-build")
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let stage = sandbox.path("stage")
        let install = try make(["install", "DESTDIR=" + stage, "SWIFT_BUILD_DIR=" + empty])
        XCTAssertNotEqual(install.status, 0)
        XCTAssertTrue(install.stderr.contains("no pb in SWIFT_BUILD_DIR=\(empty): build it first (swift build -c release)"), install.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: stage), "make install wrote something without programs to install")
    }
}

import Foundation
import XCTest

final class CopyPasteTests: IntegrationTestCase {
    /// pb, the library and the protocol against a daemon: the server runs in this process.
    override class var daemonRunsInProcess: Bool { true }

    func testTenMebibytesOfRandomBinaryRoundTripExactly() throws {
        var bytes = [UInt8](repeating: 0, count: 10 << 20)
        var generator = SystemRandomNumberGenerator()
        for index in stride(from: 0, to: bytes.count, by: 8) {
            withUnsafeBytes(of: generator.next() as UInt64) { random in
                for offset in 0..<8 { bytes[index + offset] = random[offset] }
            }
        }
        let data = Data(bytes)
        try pbOK("copy", stdin: data)
        let pasted = try pbOK("paste")
        XCTAssertEqual(pasted.stdout.count, data.count)
        XCTAssertTrue(pasted.stdout == data, "pasted bytes differ from copied bytes")
        let item = try XCTUnwrap((listing()["items"] as? [[String: Any]])?.first)
        let representation = try XCTUnwrap((item["representations"] as? [[String: Any]])?.first)
        XCTAssertEqual(representation["type"] as? String, "public.data")
        XCTAssertEqual(representation["size"] as? Int, 10 << 20)
    }

    func testSeveralRepresentationsAreNegotiatedByConformanceAndPreference() throws {
        try pbOK("copy", "--rep", "public.html=<b>hi</b>", "--rep", "public.utf8-plain-text=hi")
        XCTAssertEqual(try pbOK("paste").stdoutText, "<b>hi</b>", "without -t the first representation")
        XCTAssertEqual(try pbOK("paste", "-t", "text").stdoutText, "hi", "'text' prefers plain text")
        XCTAssertEqual(try pbOK("paste", "-t", "text/html").stdoutText, "<b>hi</b>", "MIME types map in")
        XCTAssertEqual(try pbOK("paste", "-t", "public.text").stdoutText, "<b>hi</b>", "highest fidelity among conforming")
        XCTAssertEqual(try pbOK("paste", "-t", "public.data").stdoutText, "<b>hi</b>")
        XCTAssertEqual(try pbOK("paste", "-t", "public.png", "-t", "public.plain-text").stdoutText, "hi", "preference order")
        let refused = try pb("paste", "-t", "image")
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("no representation conforming to public.image"), refused.stderr)
        XCTAssertTrue(refused.stdout.isEmpty)
    }

    func testRepresentationsFromFilesStdinAndTextKeepTheirOrder() throws {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3]
        try Data(png).write(to: URL(fileURLWithPath: sandbox.path("pic.png")))
        try pbOK("copy", "--rep", "public.png=@\(sandbox.path("pic.png"))", "--rep", "text/plain=-", "--rep", "text/x-custom=x", stdin: Data("caption".utf8))
        let items = try XCTUnwrap(listing()["items"] as? [[String: Any]])
        XCTAssertEqual(items.count, 1)
        guard items.count == 1 else { return }
        XCTAssertEqual(items[0]["suggestedName"] as? String, "pic.png")
        let types = (items[0]["representations"] as? [[String: Any]])?.compactMap { $0["type"] as? String }
        XCTAssertEqual(types, ["public.png", "public.plain-text", "dyn.mime.text/x-custom"])
        XCTAssertEqual(try pbOK("paste", "-t", "image").stdout, Data(png))
        XCTAssertEqual(try pbOK("paste", "-t", "text").stdoutText, "caption")
    }

    func testEachFileIsOneItemWithASniffedType() throws {
        try Data([0x25, 0x50, 0x44, 0x46, 0x2D, 0x31]).write(to: URL(fileURLWithPath: sandbox.path("doc.txt")))
        try Data("{\"a\":1}".utf8).write(to: URL(fileURLWithPath: sandbox.path("data.json")))
        try Data("plain words".utf8).write(to: URL(fileURLWithPath: sandbox.path("notes")))
        try pbOK("copy", sandbox.path("doc.txt"), sandbox.path("data.json"), sandbox.path("notes"))
        let items = try XCTUnwrap(listing()["items"] as? [[String: Any]])
        let types = items.map { (($0["representations"] as? [[String: Any]])?.first?["type"] as? String) ?? "?" }
        XCTAssertEqual(types, ["public.pdf", "public.json", "public.utf8-plain-text"], "magic beats extension, then extension, then UTF-8")
        XCTAssertEqual(try pbOK("paste", "--item", "2").stdoutText, "plain words")
        XCTAssertEqual(try pbOK("copy", "-t", "text/html", sandbox.path("notes")).status, 0)
        XCTAssertEqual(try pbOK("paste", "-t", "public.html").stdoutText, "plain words", "an explicit -t wins over sniffing")
    }

    func testStandardInputIsSniffedByTheBuiltInMagicNumbers() throws {
        let samples: [(bytes: [UInt8], type: String)] = [
            (Array("GIF89a and then some".utf8), "public.gif"),
            (Array("%PDF-1.7".utf8), "public.pdf"),
            ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13], "public.png"),
            (Array("RIFF\0\0\0\0WEBPVP8 ".utf8), "public.webp"),
            (Array("plain words, GIF89a later".utf8), "public.utf8-plain-text"),
            ([0x00, 0xFF, 0x10], "public.data"),
        ]
        for sample in samples {
            try pbOK("copy", stdin: Data(sample.bytes))
            let items = try XCTUnwrap(listing()["items"] as? [[String: Any]])
            let type = (items.first?["representations"] as? [[String: Any]])?.first?["type"] as? String
            XCTAssertEqual(type, sample.type, "stdin starting \(sample.bytes.prefix(8))")
        }
    }

    func testOutputFileIsWrittenWholeOrNotAtAll() throws {
        try pbOK("copy", stdin: Data("content".utf8))
        let target = sandbox.path("out.txt")
        try pbOK("paste", "-o", target)
        XCTAssertEqual(try String(contentsOfFile: target, encoding: .utf8), "content")

        let failing = try pb("paste", "-t", "public.png", "-o", sandbox.path("never.png"))
        XCTAssertEqual(failing.status, 1)
        XCTAssertFalse(FileManager.default.fileExists(atPath: sandbox.path("never.png")))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: sandbox.root.path).filter { $0.contains(".pb-") }
        XCTAssertEqual(leftovers, [], "no temporary file is left behind")

        try Data("old".utf8).write(to: URL(fileURLWithPath: target))
        XCTAssertEqual(try pb("paste", "--item", "5", "-o", target).status, 1)
        XCTAssertEqual(try String(contentsOfFile: target, encoding: .utf8), "old", "a failed paste leaves the old file alone")
    }

    func testOutputToAFIFOIsWrittenIntoItNotReplaced() throws {
        try pbOK("copy", stdin: Data("through the pipe".utf8))
        let fifo = sandbox.path("fifo")
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let reader = try start("/bin/sh", ["-c", "cat \"$0\" > \"$0.out\"", fifo])
        try pbOK("paste", "-o", fifo)
        reader.process.waitUntilExit()
        XCTAssertEqual(try String(contentsOfFile: fifo + ".out", encoding: .utf8), "through the pipe")
        var info = stat()
        XCTAssertEqual(lstat(fifo, &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFIFO, "-o into a FIFO (or /dev/null) writes into it; a rename would replace it with a file")
    }

    func testALazyCopyOrDragOfAFIFOIsRefusedAtOnceAndLosesNothing() throws {
        try pbOK("copy", stdin: Data("kept".utf8))
        let fifo = sandbox.path("fifo")
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        // Nobody writes to the FIFO: opening it to read would wait forever.
        for arguments in [["copy", "--lazy", fifo], ["copy", "--lazy", "--rep", "public.data=@\(fifo)"], ["drag", fifo]] {
            let refused = try runTool("pb", arguments, environment: sandbox.environment(), in: sandbox)
            XCTAssertEqual(refused.status, 1, "pb \(arguments): \(refused.stderr)")
            XCTAssertEqual(refused.stderr, "pb: cannot serve \(fifo) lazily: it is a pipe or FIFO, which can be read only once; copy it without --lazy\n")
        }
        XCTAssertEqual(try pbOK("paste").stdoutText, "kept", "the pasteboard is untouched")
        XCTAssertEqual(try pbOK("sessions", "--json").stdoutText.trimmingCharacters(in: .whitespacesAndNewlines), "[]", "no session was lifted")
    }

    /// `pb paste ARGUMENTS` with stdout on a terminal: util-linux's script(1) gives it one, and
    /// what reached the terminal comes back on script's stdout.
    private func pasteToTerminal(_ arguments: String) throws -> ProcessResult {
        let command = "\(Binaries.url("pb").path) paste \(arguments)"
        return try runTool("/usr/bin/script", ["-q", "-e", "-c", command, "/dev/null"], environment: sandbox.environment(), in: sandbox)
    }

    func testBinaryDataIsNotWrittenToATerminalUnlessForced() throws {
        let png = PNGFixture.make(width: 4, height: 3)
        let path = sandbox.path("image.png")
        try png.write(to: URL(fileURLWithPath: path))
        try pbOK("copy", path)

        let refused = try pasteToTerminal("")
        XCTAssertEqual(refused.status, 1, refused.stdoutText)
        XCTAssertEqual(refused.stdoutText, "pb: not writing public.png data to the terminal (it is not text): give -o FILE, pipe it to a program (pb paste | …), or --force\r\n",
                       "the hint, and not one byte of the image")
        XCTAssertEqual(try pbOK("paste").stdout, png, "a pipe gets the bytes")
        let output = sandbox.path("out.png")
        XCTAssertEqual(try pasteToTerminal("-o \(output)").status, 0)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: output)), png, "-o writes the file though stdout is a terminal")
        let forced = try pasteToTerminal("--force")
        XCTAssertEqual(forced.status, 0, forced.stdoutText)
        XCTAssertTrue(forced.stdout.starts(with: Data([0x89, 0x50, 0x4E, 0x47])), "--force writes the PNG")

        try pbOK("copy", stdin: Data("plain words".utf8))
        let text = try pasteToTerminal("")
        XCTAssertEqual(text.status, 0)
        XCTAssertEqual(text.stdoutText, "plain words", "text goes to a terminal as ever")
    }

    func testNamedPasteboardsAreIsolated() throws {
        try pbOK("copy", "-p", "alpha", stdin: Data("A".utf8))
        try pbOK("copy", "-p", "beta", stdin: Data("B".utf8))
        XCTAssertEqual(try pbOK("paste", "-p", "alpha").stdoutText, "A")
        XCTAssertEqual(try pbOK("paste", "-p", "beta").stdoutText, "B")
        let general = try pb("paste")
        XCTAssertEqual(general.status, 1)
        XCTAssertTrue(general.stderr.contains("empty"), general.stderr)
        try pbOK("clear", "-p", "alpha")
        XCTAssertEqual(try pbOK("paste", "-p", "beta").stdoutText, "B")
        XCTAssertEqual(try changeCount("alpha"), 2)
        XCTAssertEqual(try changeCount("beta"), 1)
    }

    func testChangeCountGrowsOnEveryWriteAndClear() throws {
        XCTAssertEqual(try changeCount(), 0)
        try pbOK("copy", stdin: Data("1".utf8))
        XCTAssertEqual(try changeCount(), 1)
        try pbOK("copy", stdin: Data("1".utf8))
        XCTAssertEqual(try changeCount(), 2, "the same content written again is still a change")
        try pbOK("clear")
        XCTAssertEqual(try changeCount(), 3)
        XCTAssertEqual((try listing()["items"] as? [Any])?.count, 0)
    }

    func testListShowsTypesMimeTypesAndSizes() throws {
        try pbOK("copy", "--rep", "public.html=<i>x</i>", "--rep", "text/plain;charset=utf-8=x")
        let text = try pbOK("list").stdoutText
        XCTAssertTrue(text.hasPrefix("changeCount: 1\n"), text)
        XCTAssertTrue(text.contains("public.html  text/html  8 bytes"), text)
        XCTAssertTrue(text.contains("public.utf8-plain-text  text/plain;charset=utf-8  1 bytes"), text)
    }

    func testRepTypesMayCarryMIMEParameters() throws {
        try pbOK("copy", "--rep", "text/plain;charset=utf-8=a=b", "--rep", "text/html=<p>=</p>")
        let types = try XCTUnwrap((listing()["items"] as? [[String: Any]])?.first?["representations"] as? [[String: Any]]).compactMap { $0["type"] as? String }
        XCTAssertEqual(types, ["public.utf8-plain-text", "public.html"])
        XCTAssertEqual(try pbOK("paste").stdoutText, "a=b")
        XCTAssertEqual(try pbOK("paste", "-t", "public.html").stdoutText, "<p>=</p>")
    }

    func testEmptyInputIsAnEmptyItem() throws {
        try pbOK("copy", stdin: Data())
        let pasted = try pbOK("paste")
        XCTAssertEqual(pasted.stdout.count, 0)
        XCTAssertEqual(try changeCount(), 1)
    }

    /// Everyday `pb copy` and `pb paste` are read by a quick path without ArgumentParser; every
    /// spelling of their options must mean the same, and anything unusual must still get
    /// ArgumentParser's messages.
    func testEverydayOptionSpellingsAndMistakesBehaveAlike() throws {
        try pbOK("copy", "--pasteboard=notes", "--type=text/plain", "--sensitive", stdin: Data("secret".utf8))
        XCTAssertEqual(try pbOK("paste", "-p", "notes", "--type", "text", "--item", "0").stdoutText, "secret")
        XCTAssertEqual(try pbOK("paste", "--pasteboard", "notes", "-t", "public.plain-text", "--item=0", "--no-progress").stdoutText, "secret")
        let output = sandbox.path("out.txt")
        try pbOK("paste", "--pasteboard=notes", "--output=\(output)")
        XCTAssertEqual(try String(contentsOfFile: output, encoding: .utf8), "secret")
        let withProgress = try pbOK("paste", "-p", "notes", "--progress", "-o", output)
        XCTAssertTrue(withProgress.stderr.contains("progress 6 6"), withProgress.stderr)
        XCTAssertTrue(try pbOK("list", "-p", "notes").stdoutText.contains("(sensitive)"))

        let badName = try pb("paste", "-p", "bad name")
        XCTAssertEqual(badName.status, 2)
        XCTAssertTrue(badName.stderr.contains("pasteboard name 'bad name' may contain only"), badName.stderr)
        let negative = try pb("paste", "--item=-1")
        XCTAssertEqual(negative.status, 2)
        XCTAssertTrue(negative.stderr.contains("--item must be 0 or more"), negative.stderr)
        let missing = try pb("paste", "--item")
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(missing.stderr.hasPrefix("pb: missing value for '--item <n>'"), missing.stderr)
        let both = try pb("paste", "--progress", "--no-progress")
        XCTAssertEqual(both.status, 2)
        XCTAssertTrue(both.stderr.contains("give --progress or --no-progress, not both"), both.stderr)
        try pbOK("copy", "-p", "twice", "-t", "text/plain", "-t", "text/html", stdin: Data("x".utf8))
        XCTAssertTrue(try pbOK("list", "-p", "twice").stdoutText.contains("public.html"), "the last -t wins, as ArgumentParser has it")
        let unknownType = try pb("copy", "-t", "no-such-type", stdin: Data("x".utf8))
        XCTAssertEqual(unknownType.status, 2)
        XCTAssertTrue(unknownType.stderr.contains("unknown type 'no-such-type'"), unknownType.stderr)
        XCTAssertEqual(try pbOK("paste", "-p", "notes").stdoutText, "secret", "failed copies left the pasteboard alone")
        XCTAssertTrue(try pbOK("paste", "--help").stdoutText.contains("USAGE: pb paste"))
    }
}

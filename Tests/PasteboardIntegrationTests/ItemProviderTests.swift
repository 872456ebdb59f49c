import Foundation
import Pasteboard
import PasteboardProtocol
import PasteboardTypes
import Synchronization
import XCTest

/// The client library against a real daemon: this test process is one side (source or
/// destination), a real `pb` process often the other.
final class ItemProviderTests: IntegrationTestCase {
    /// pb, the library and the protocol against a daemon: the server runs in this process.
    override class var daemonRunsInProcess: Bool { true }

    private func withPasteboard<R: Sendable>(
        declaring types: [TypeDeclaration] = [],
        _ body: (Pasteboard) async throws -> R
    ) async throws -> R {
        try await PasteboardConnection.withConnection(socketPath: sandbox.socketPath, clientName: "tests", declaring: types, autoStart: false) {
            try await body(Pasteboard(connection: $0))
        }
    }

    /// Runs `pb` off the test's executor (the library side keeps serving meanwhile).
    private func pbAsync(_ arguments: String...) async throws -> ProcessResult {
        let environment = sandbox.environment()
        let sandbox = sandbox!
        return try await Task.detached { try runTool("pb", arguments, environment: environment, in: sandbox) }.value
    }

    func testAPromiseIsProducedOnlyWhenLoadedAndTheSourceHearsProgressAndDelivery() async throws {
        let calls = Mutex(0)
        let events = Mutex<[SourceEvent]>([])
        let payload = [UInt8]((0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        try await withPasteboard { pasteboard in
            var provider = ItemProvider(suggestedName: "pattern.bin")
            provider.registerDataRepresentation(for: .data, size: payload.count, observer: { event in
                events.withLock { $0.append(event) }
            }) { writer in
                calls.withLock { $0 += 1 }
                for start in stride(from: 0, to: payload.count, by: 100_000) {
                    try await writer.write(contentsOf: payload[start..<min(start + 100_000, payload.count)])
                }
            }
            provider.registerData(Array("pattern".utf8), for: .utf8PlainText)
            try await pasteboard.setItems([provider])
            XCTAssertEqual(calls.withLock { $0 }, 0, "nothing is produced before a load")

            let items = try await pasteboard.items()
            XCTAssertEqual(items.first?.types, [.data, .utf8PlainText])
            XCTAssertEqual(items.first?.representations.first?.size, payload.count)
            XCTAssertEqual(items.first?.representations.first?.isLazy, true)
            XCTAssertEqual(items.first?.suggestedName, "pattern.bin")
            XCTAssertTrue(items.first?.hasRepresentation(conformingTo: .text) == true)
            XCTAssertFalse(items.first?.hasRepresentation(conformingTo: .image) == true)

            let pasted = try await pbAsync("paste")
            XCTAssertEqual(pasted.status, 0, pasted.stderr)
            XCTAssertTrue(pasted.stdout == Data(payload))
            let text = try await pbAsync("paste", "-t", "text")
            XCTAssertEqual(text.stdoutText, "pattern", "eager representations need no handler")
            XCTAssertEqual(calls.withLock { $0 }, 1)
            let seen = events.withLock { $0 }
            XCTAssertEqual(seen.last, .delivered)
            let progress = seen.compactMap { if case .progress(let value) = $0 { value } else { nil } }
            XCTAssertEqual(progress.last, LoadProgress(completed: payload.count, total: payload.count), "the source hears the final count")
        }
        // Closing the connection relinquished the promise: the daemon captured it (3 MiB is
        // within the default budget), so it outlives the source.
        XCTAssertEqual(calls.withLock { $0 }, 2)
        let after = try pbOK("paste")
        XCTAssertTrue(after.stdout == Data(payload))
        XCTAssertFalse(try pbOK("list").stdoutText.contains("(lazy)"))
    }

    /// A source's declared size is a claim, not an allocation: loading whole into memory a
    /// representation that claims 2^62 bytes and brings 5 reserves no exabytes (it trapped).
    func testDataFromAFileAndFromAPipeIsSentAsItIsReadAndRoundTrips() async throws {
        let path = try randomFile("movie.bin", size: 6 << 20)
        var pipeEnds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&pipeEnds), 0)
        let text = [UInt8](repeating: UInt8(ascii: "x"), count: 5 << 20)
        let writeEnd = pipeEnds[1]
        // The pipe holds 64 KiB: the writer finishes only if the upload reads as it sends.
        let writer = Thread {
            text.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let written = write(writeEnd, raw.baseAddress! + offset, raw.count - offset)
                    if written <= 0 { break }
                    offset += written
                }
            }
            close(writeEnd)
        }
        writer.start()
        try await withPasteboard { pasteboard in
            var video = ItemProvider(suggestedName: "movie.bin")
            try video.registerData(contentsOfFile: path, for: .data)
            XCTAssertEqual(video.representations.first?.size, 6 << 20, "a file's size is known up front")
            var note = ItemProvider()
            try note.registerData(readingFrom: pipeEnds[0], for: .utf8PlainText)
            XCTAssertNil(note.representations.first?.size, "a pipe's is not")
            try await pasteboard.setItems([video, note])
            let items = try await pasteboard.items()
            XCTAssertEqual(items.map { $0.representations.first?.size }, [6 << 20, 5 << 20])
            XCTAssertEqual(items.first?.representations.first?.isLazy, false, "the daemon holds the bytes")
        }
        let pasted = sandbox.path("pasted.bin")
        _ = try await pbAsync("paste", "-o", pasted)
        XCTAssertTrue(FileManager.default.contentsEqual(atPath: path, andPath: pasted), "the file's bytes differ")
        let pastedText = try await pbAsync("paste", "--item", "1").stdout
        XCTAssertEqual(pastedText, Data(text), "the pipe's bytes differ")
        var missing = ItemProvider()
        XCTAssertThrowsError(try missing.registerData(contentsOfFile: sandbox.path("missing"), for: .data),
                             "a missing file is reported when registered, not half-way through a write")
    }

    func testADeclaredSizeIsNotTakenAsAnAllocation() async throws {
        try await withPasteboard { source in
            var provider = ItemProvider()
            provider.registerDataRepresentation(for: .data, size: 1 << 62) { writer in
                try await writer.write(contentsOf: Array("small".utf8))
            }
            try await source.setItems([provider])
            try await PasteboardConnection.withConnection(socketPath: sandbox.socketPath, clientName: "destination", autoStart: false) { connection in
                do {
                    let (header, bytes) = try await Pasteboard(connection: connection).loadData(accepting: [.data])
                    XCTAssertEqual(header.size, 1 << 62)
                    XCTAssertLessThanOrEqual(bytes.count, 5)
                } catch {
                    // Refusing the short delivery is as good: what matters is no trap.
                }
            }
        }
    }

    func testOwnProcessItemsAreRefusedToOtherProcesses() async throws {
        try await withPasteboard { pasteboard in
            var provider = ItemProvider(visibility: .ownProcess)
            provider.registerDataRepresentation(for: .utf8PlainText) { writer in
                try await writer.write(contentsOf: Array("secret".utf8))
            }
            try await pasteboard.setItems([provider])
            let refused = try await pbAsync("paste")
            XCTAssertEqual(refused.status, 1)
            XCTAssertTrue(refused.stderr.contains("only by the process that wrote it"), refused.stderr)
            XCTAssertTrue(refused.stdout.isEmpty)
            let own = try await pasteboard.loadData(accepting: [.text])
            XCTAssertEqual(String(decoding: own.bytes, as: UTF8.self), "secret", "the writing process itself may load it")
        }
    }

    func testADestinationThatDiesCancelsTheSourceHandler() async throws {
        let handlerCancelled = expectation(description: "handler cancelled")
        let observerHeard = expectation(description: "observer heard the cancellation")
        try await withPasteboard { pasteboard in
            var provider = ItemProvider()
            provider.registerDataRepresentation(for: .data, observer: { event in
                if event == .cancelled { observerHeard.fulfill() }
            }) { writer in
                do {
                    // An endless stream: only cancellation ends it.
                    let chunk = [UInt8](repeating: 1, count: 65536)
                    while true { try await writer.write(contentsOf: chunk) }
                } catch {
                    if Task.isCancelled || error is CancellationError { handlerCancelled.fulfill() }
                    throw error
                }
            }
            try await pasteboard.setItems([provider])
            let paste = try ToolProcess("pb", ["paste", "--progress", "-o", sandbox.path("never.bin")],
                                        environment: sandbox.environment(), in: sandbox)
            XCTAssertNotNil(paste.waitForLine { $0.hasPrefix("progress ") })
            paste.signal(SIGKILL)
            await fulfillment(of: [handlerCancelled, observerHeard], timeout: 20)
            XCTAssertFalse(FileManager.default.fileExists(atPath: sandbox.path("never.bin")))
        }
    }

    /// `writeFile(at:)` of a FIFO nobody writes blocks no thread of the handler's (issue 40): the
    /// handler waits off the cooperative pool, and the destination leaving cancels it at once.
    /// (It used to open and read the FIFO on the handler's task, which stayed blocked in open(2)
    /// for ever: cancellation could not reach it.)
    func testAHandlerWritingAFIFONobodyWritesIsCancelledWhenTheDestinationLeaves() async throws {
        try await fifoNobodyWrites(handoff: false)
    }

    /// The same with the load handed off: the daemon no longer sees the destination, whose
    /// socket's hang-up ends the handler's wait.
    func testAHandedOffHandlerWritingAFIFONobodyWritesIsCancelledWhenTheDestinationLeaves() async throws {
        try await fifoNobodyWrites(handoff: true)
    }

    private func fifoNobodyWrites(handoff: Bool) async throws {
        let fifo = sandbox.path("silent-\(handoff).fifo")
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let handlerStarted = expectation(description: "handler started")
        let handlerCancelled = expectation(description: "handler cancelled")
        // A handler still blocked in the FIFO (as before the fix) is released after a while, so
        // the test fails instead of hanging.
        let release = Task.detached {
            try? await Task.sleep(for: .seconds(15))
            let writer = open(fifo, O_WRONLY | O_NONBLOCK)
            if writer >= 0 { close(writer) }
        }
        defer { release.cancel() }
        try await withPasteboard { pasteboard in
            var provider = ItemProvider()
            provider.registerDataRepresentation(for: .data) { writer in
                // The capture as this connection ends is not the load under test.
                if writer.isCapture { return }
                handlerStarted.fulfill()
                do {
                    try await writer.writeFile(at: fifo)
                } catch {
                    if error is CancellationError || Task.isCancelled { handlerCancelled.fulfill() }
                    throw error
                }
            }
            try await pasteboard.setItems([provider])
            // In band, the daemon tells the source its destination left; handed off, its socket does.
            var environment = sandbox.environment()
            if !handoff { environment["PASTEBOARD_HANDOFF"] = "0" }
            let paste = try ToolProcess("pb", ["paste", "-o", sandbox.path("never.bin")], environment: environment, in: sandbox)
            await fulfillment(of: [handlerStarted], timeout: 20)
            // The cooperative pool is free meanwhile: other tasks of this process run.
            let other = await Task.detached { 6 * 7 }.value
            XCTAssertEqual(other, 42)
            paste.signal(SIGKILL)
            await fulfillment(of: [handlerCancelled], timeout: 10)
        }
    }

    /// A FIFO that is written is streamed whole, however its writer times its bytes: opened
    /// without blocking, it is read only when poll says so, never taken for empty before its
    /// writer came.
    func testAHandlerWritingAFIFOStreamsWhatItsWriterWrites() async throws {
        let fifo = sandbox.path("spoken.fifo")
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        try await withPasteboard { pasteboard in
            var provider = ItemProvider()
            provider.registerDataRepresentation(for: .utf8PlainText) { writer in
                // The capture as this connection ends finds the FIFO's writer gone.
                if writer.isCapture { return }
                try await writer.writeFile(at: fifo)
            }
            try await pasteboard.setItems([provider])
            // The writer opens the FIFO a little after the handler did, then speaks in two parts.
            let writerThread = Thread {
                Thread.sleep(forTimeInterval: 0.2)
                let fd = open(fifo, O_WRONLY)
                guard fd >= 0 else { return }
                _ = write(fd, "from ", 5)
                Thread.sleep(forTimeInterval: 0.1)
                _ = write(fd, "the fifo", 8)
                close(fd)
            }
            writerThread.start()
            var environment = sandbox.environment()
            environment["PASTEBOARD_HANDOFF"] = "0"
            let sandbox = sandbox!
            let pasted = try await Task.detached { [environment] in try runTool("pb", ["paste"], environment: environment, in: sandbox) }.value
            XCTAssertEqual(pasted.status, 0, pasted.stderr)
            XCTAssertEqual(pasted.stdoutText, "from the fifo")
        }
    }

    func testADestinationEnumAcceptsAStringAURLOrImageDataInOneLoad() async throws {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
        try Data(png).write(to: URL(fileURLWithPath: sandbox.path("drop.png")))
        try await withPasteboard { pasteboard in
            try pbOK("copy", stdin: Data("plain words".utf8))
            var loaded = try await pasteboard.load(DroppedItem.self)
            XCTAssertEqual(loaded, .text("plain words"))

            try pbOK("copy", "-t", "public.url", stdin: Data("https://example.com/a".utf8))
            loaded = try await pasteboard.load(DroppedItem.self)
            XCTAssertEqual(loaded, .url(URL(string: "https://example.com/a")!))

            try pbOK("copy", sandbox.path("drop.png"))
            loaded = try await pasteboard.load(DroppedItem.self)
            XCTAssertEqual(loaded, .image(Data(png)))

            // Several representations: the destination's order decides (URL before text).
            try pbOK("copy", "--rep", "public.utf8-plain-text=see https://example.com/b", "--rep", "public.url=https://example.com/b")
            loaded = try await pasteboard.load(DroppedItem.self)
            XCTAssertEqual(loaded, .url(URL(string: "https://example.com/b")!))

            try pbOK("copy", "-t", "application/zip", stdin: Data("PK".utf8))
            do {
                _ = try await pasteboard.load(DroppedItem.self)
                XCTFail("a zip archive is none of the accepted kinds")
            } catch let error as PasteboardError {
                XCTAssertEqual(error.code, .noConformingRepresentation)
            }
        }
    }

    func testTransferableObjectsAreExportedLazilyAsEachOfTheirRepresentations() async throws {
        try await withPasteboard(declaring: [Note.declaration]) { pasteboard in
            var provider = ItemProvider()
            provider.register(Note(title: "Groceries", body: "eggs"))
            XCTAssertEqual(provider.registeredTypes, [Note.type, .utf8PlainText])
            try await pasteboard.setItems([provider])
            let note = try await pasteboard.load(Note.self)
            XCTAssertEqual(note, Note(title: "Groceries", body: "eggs"))
            let text = try await pbAsync("paste", "-t", "text")
            XCTAssertEqual(text.stdoutText, "Groceries")
            let typed = try await pbAsync("paste", "-t", Note.type.rawValue)
            XCTAssertEqual(typed.status, 0, typed.stderr)
            XCTAssertTrue(typed.stdoutText.contains("\"body\":\"eggs\""), typed.stdoutText)
        }
    }

    func testAppDeclaredTypesReachTheDaemonAndClashesAreErrors() async throws {
        try await withPasteboard(declaring: [Note.declaration]) { _ in }
        // The same declaration again is fine (apps declare on every connect).
        try await withPasteboard(declaring: [Note.declaration]) { _ in }
        var clash = Note.declaration
        clash.conformsTo = [.image]
        do {
            // Another app: only the app that declared a type may replace it (see DeclaredTypesTests).
            try await PasteboardConnection.withConnection(
                socketPath: sandbox.socketPath, clientName: "another-app", declaring: [clash], autoStart: false) { _ in }
            XCTFail("a different declaration of a declared type must be refused")
        } catch let error as PasteboardError {
            XCTAssertEqual(error.code, .typeConflict)
            XCTAssertTrue("\(error)".contains("already declared by app 'tests'"), "\(error)")
        }
        // Other processes negotiate with the declared type: it conforms to public.json.
        try pbOK("copy", "-t", "public.json", stdin: Data("{}".utf8))
        try await withPasteboard { pasteboard in
            var provider = ItemProvider()
            provider.registerData(Array("{\"title\":\"a\",\"body\":\"b\"}".utf8), for: Note.type)
            try await pasteboard.setItems([provider])
        }
        XCTAssertEqual(try pbOK("paste", "-t", "public.json").stdoutText, "{\"title\":\"a\",\"body\":\"b\"}")
    }

    func testLoadFileGivesATemporaryCopyOrTheOriginalWhenOpenedInPlace() async throws {
        let original = sandbox.path("report.txt")
        try Data("quarterly numbers".utf8).write(to: URL(fileURLWithPath: original))
        try await withPasteboard { pasteboard in
            var provider = ItemProvider(suggestedName: "report.txt")
            provider.registerFileRepresentation(for: .utf8PlainText, at: original, openInPlace: true)
            try await pasteboard.setItems([provider])

            var copyPath = ""
            do {
                let copy = try await pasteboard.loadFile(accepting: [.text], directory: sandbox.root.path)
                copyPath = copy.path
                XCTAssertFalse(copy.isOriginal)
                XCTAssertNotEqual(copy.path, original)
                XCTAssertEqual(try String(contentsOfFile: copy.path, encoding: .utf8), "quarterly numbers")
            }
            XCTAssertFalse(FileManager.default.fileExists(atPath: copyPath), "an unmoved temporary copy is deleted")

            let kept = sandbox.path("kept.txt")
            do {
                let copy = try await pasteboard.loadFile(accepting: [.text], directory: sandbox.root.path)
                try copy.move(to: kept)
            }
            XCTAssertEqual(try String(contentsOfFile: kept, encoding: .utf8), "quarterly numbers", "a moved file stays")

            do {
                let inPlace = try await pasteboard.loadFile(accepting: [.text], openInPlace: true)
                XCTAssertTrue(inPlace.isOriginal)
                XCTAssertEqual(inPlace.path, original)
            }
            XCTAssertTrue(FileManager.default.fileExists(atPath: original), "the original is never deleted")
        }
        // The file representation is read by the daemon: it outlives the source's connection.
        XCTAssertEqual(try pbOK("paste").stdoutText, "quarterly numbers")
    }

    func testATaskOnTheConnectionsExecutorCopiesPastesAndLoadsItsOwnPromise() async throws {
        // Small eager bytes go out with their request in one write; more than the first credit
        // waits for the daemon's grants; a promise is served while the loading task holds the
        // connection's thread. Each must still arrive whole.
        let small = Array("0123456789abcdef".utf8)
        let large = [UInt8]((0..<(ProtocolLimits.defaultWindow + (1 << 20))).map { UInt8(truncatingIfNeeded: $0 &* 13) })
        let promised = [UInt8]((0..<(2 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 5) })
        try await PasteboardConnection.withConnection(socketPath: sandbox.socketPath, clientName: "tests", autoStart: false) { connection in
            try await withTaskExecutorPreference(connection.taskExecutor) {
                let pasteboard = Pasteboard(connection: connection)
                for bytes in [small, large] {
                    var item = ItemProvider()
                    item.registerData(bytes, for: .data)
                    try await pasteboard.setItems([item])
                    let (_, pasted) = try await pasteboard.loadData(accepting: [.data])
                    XCTAssertTrue(pasted == bytes, "\(bytes.count) bytes came back as \(pasted.count)")
                }
                var lazy = ItemProvider()
                lazy.registerDataRepresentation(for: .data, size: promised.count) { writer in
                    try await writer.write(contentsOf: promised)
                }
                try await pasteboard.setItems([lazy])
                let (_, pasted) = try await pasteboard.loadData(accepting: [.data])
                XCTAssertTrue(pasted == promised, "the promise came back as \(pasted.count) bytes")
            }
        }
        XCTAssertEqual(try pbOK("paste").stdout.count, promised.count, "relinquished at the close")
    }
}

/// An app type for the tests: exported as its own JSON type and as plain text (its title).
struct Note: Transferable, Codable, Equatable {
    var title: String
    var body: String

    static let type = TypeIdentifier(rawValue: "com.example.tests.note")
    static let declaration = TypeDeclaration(identifier: type, conformsTo: [.json], description: "A test note")

    static var transferRepresentations: [TransferRepresentation<Note>] {
        [
            .codable(contentType: type),
            .proxy(exporting: { $0.title }),
        ]
    }
}

/// The seeds' `.dropDestination` enum: one load accepts any of three kinds.
enum DroppedItem: Transferable, Equatable {
    case text(String), url(URL), image(Data)

    static var transferRepresentations: [TransferRepresentation<DroppedItem>] {
        [
            .proxy(importing: { DroppedItem.url($0) }),
            .proxy(importing: { DroppedItem.text($0) }),
            .data(contentType: .image, importing: { .image($0) }),
        ]
    }
}

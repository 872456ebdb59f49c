import Foundation
import Pasteboard
import PasteboardTypes
import XCTest

/// A view model as an app writes one: main-actor state updated from the library's closures,
/// which need no `@Sendable` (Swift 6 mode: this file compiling is half the test).
@MainActor
final class PasteViewModel {
    var fraction: Double = 0
    var reports = 0
    var text = ""
    var events: [String] = []

    func paste(socketPath: String) async throws {
        text = try await PasteboardConnection.withConnection(socketPath: socketPath, clientName: "viewmodel", autoStart: false) { connection in
            let (_, bytes) = try await Pasteboard(connection: connection).loadData(accepting: [.plainText]) { progress in
                self.fraction = progress.fractionCompleted ?? 0
                self.reports += 1
            }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    /// A file load and a Transferable load, each reporting to main-actor state.
    func pasteAgain(socketPath: String) async throws -> (file: String, string: String) {
        try await PasteboardConnection.withConnection(socketPath: socketPath, clientName: "viewmodel", autoStart: false) { connection in
            let pasteboard = Pasteboard(connection: connection)
            let file = try await pasteboard.loadFile(accepting: [.plainText]) { _ in self.reports += 1 }
            let string = try await pasteboard.load(String.self) { _ in self.reports += 1 }
            return (try String(contentsOfFile: file.path, encoding: .utf8), string)
        }
    }

    /// A drag's events, recorded on the main actor (compiled here; the drag tests run drags).
    func follow(_ session: DragSession) async throws {
        _ = try await session.outcome { event in self.events.append("\(event)") }
    }
}

/// Whether the calling thread is the process's main thread, where the main actor runs on Linux:
/// a check that does not trap, so a closure run elsewhere fails the test instead of ending it.
func onMainThread() -> Bool { Thread.isMainThread }

final class MainActorCallerTests: IntegrationTestCase {
    /// pb, the library and the protocol against a daemon: the server runs in this process.
    override class var daemonRunsInProcess: Bool { true }

    /// The progress and event closures of every load API run on the main actor when a
    /// `@MainActor` caller calls them (checked on the thread, which does not trap).
    @MainActor
    func testEveryClosureOfALoadRunsOnTheCallersActor() async throws {
        let file = try randomFile("large", size: 8 << 20)
        try pbOK("copy", file)
        var offMain: [String] = []
        var calls = 0
        try await PasteboardConnection.withConnection(socketPath: sandbox.socketPath, clientName: "isolation", autoStart: false) { connection in
            let pasteboard = Pasteboard(connection: connection)
            _ = try await pasteboard.loadData(accepting: [.data]) { _ in
                calls += 1
                if !onMainThread() { offMain.append("loadData") }
            }
            _ = try await pasteboard.loadFile(accepting: [.data]) { _ in
                calls += 1
                if !onMainThread() { offMain.append("loadFile") }
            }
            _ = try await pasteboard.load(item: 0, accepting: [.data], progress: { _ in
                calls += 1
                if !onMainThread() { offMain.append("load progress") }
            }, chunk: { _ in
                if !onMainThread() { offMain.append("load chunk") }
            })
        }
        XCTAssertGreaterThan(calls, 2)

        // A live source's events, and the drop's loads, from the main actor too.
        var provider = ItemProvider()
        provider.registerData(Array("served".utf8), for: .utf8PlainText)
        var source = LiveSource(items: [provider], socketPath: sandbox.socketPath, clientName: "isolation")
        source.autoStart = false
        var events = 0
        // Served until its first event (the copy) is in.
        let (copied, copiedSink) = AsyncStream.makeStream(of: Void.self)
        _ = try await source.run(until: { for await _ in copied { return } }, onEvent: { _ in
            events += 1
            if !onMainThread() { offMain.append("LiveSource.run onEvent") }
            copiedSink.yield()
        })
        XCTAssertGreaterThan(events, 0)
        XCTAssertEqual(Set(offMain), [], "closures ran off the main actor: \(offMain.count) calls")
    }

    @MainActor
    func testAMainActorViewModelLoadsAndUpdatesItsState() async throws {
        try pbOK("copy", stdin: Data("from the main actor".utf8))
        let model = PasteViewModel()
        try await model.paste(socketPath: sandbox.socketPath)
        XCTAssertEqual(model.text, "from the main actor")
        XCTAssertEqual(model.fraction, 1)
        XCTAssertGreaterThan(model.reports, 0)

        let before = model.reports
        let again = try await model.pasteAgain(socketPath: sandbox.socketPath)
        XCTAssertEqual(again.file, "from the main actor")
        XCTAssertEqual(again.string, "from the main actor")
        XCTAssertGreaterThan(model.reports, before)
    }
}

/// An app's shared load helper: `nonisolated(nonsending)`, so it runs on its caller's actor,
/// and the closures it hands the library (the `withConnection` body, formed here, the progress,
/// header and chunk closures, a drop's body) must run there too (on f680a78, 96 of 96 reports
/// ran off a busy main actor this way).
nonisolated(nonsending) func loadEveryWay(socketPath: String, clientName: String, report: () -> Void) async throws {
    try await PasteboardConnection.withConnection(socketPath: socketPath, clientName: clientName, autoStart: false) { connection in
        let pasteboard = Pasteboard(connection: connection)
        for _ in 0..<3 {
            _ = try await pasteboard.loadData(accepting: [.data]) { _ in report() }
            _ = try await pasteboard.loadFile(accepting: [.data]) { _ in report() }
        }
        // A streaming load's header and chunks.
        _ = try await pasteboard.load(accepting: [.data], header: { _ in report() }, chunk: { _ in report() })
        // A drop: its body, and its load's progress.
        var item = ItemProvider()
        item.registerData(Array("dropped".utf8), for: .utf8PlainText)
        let session = try await DragSession.begin(with: [item], on: connection)
        let found = try await DropSession.session(session.id, on: connection)
        _ = try await found.perform(.copy) { drop in
            report()
            return try await drop.loadData(item: 0, accepting: [.plainText]) { _ in report() }.bytes
        }
    }
}

/// Holds the calling thread for `milliseconds`, as a job of an actor's own would.
func spin(milliseconds: Int) {
    let end = ContinuousClock.now + .milliseconds(milliseconds)
    while ContinuousClock.now < end {}
}

/// A custom actor as the caller, kept busy by other jobs while its loads report progress: a
/// closure that ran on the actor can never see one of those jobs half done (`inJob`); one run
/// elsewhere, at the same time, would (the data race the compiler cannot see).
actor BusyCaller {
    private var inJob = false
    private(set) var overlaps = 0
    private(set) var reports = 0

    /// A job of the actor's own: holds it for `milliseconds`.
    func job(milliseconds: Int) {
        inJob = true
        spin(milliseconds: milliseconds)
        inJob = false
    }

    /// Through an app's own shared helper, as an app factors its loads: the helper runs on
    /// this actor, and so must every closure the library calls inside it.
    func load(socketPath: String) async throws {
        try await loadEveryWay(socketPath: socketPath, clientName: "busy-actor") { self.note() }
    }

    private func note() {
        reports += 1
        if inJob { overlaps += 1 }
    }
}

extension MainActorCallerTests {
    func testACustomActorCallerKeptBusyGetsEveryProgressReportOnItself() async throws {
        let file = try randomFile("large", size: 16 << 20)
        try pbOK("copy", file)
        let caller = BusyCaller()
        let busy = Task {
            // 8 ms of every 10, as an actor with work of its own.
            while !Task.isCancelled {
                await caller.job(milliseconds: 8)
                try? await Task.sleep(for: .milliseconds(2))
            }
        }
        try await caller.load(socketPath: sandbox.socketPath)
        busy.cancel()
        _ = await busy.value
        let (reports, overlaps) = (await caller.reports, await caller.overlaps)
        XCTAssertGreaterThan(reports, 6)
        XCTAssertEqual(overlaps, 0, "\(overlaps) of \(reports) progress reports ran while the actor was in another job")
    }
}

/// The main actor kept busy 8 ms of every 10 while a view model's loads report progress.
@MainActor
final class BusyMainActorModel {
    var inJob = false
    var overlaps = 0
    var reports = 0

    func job(milliseconds: Int) {
        inJob = true
        spin(milliseconds: milliseconds)
        inJob = false
    }

    func load(socketPath: String) async throws {
        try await loadEveryWay(socketPath: socketPath, clientName: "busy-main") { self.note() }
    }

    private func note() {
        reports += 1
        if inJob || !Thread.isMainThread { overlaps += 1 }
    }
}

extension MainActorCallerTests {
    @MainActor
    func testABusyMainActorGetsEveryProgressReportBetweenItsJobs() async throws {
        let file = try randomFile("large", size: 16 << 20)
        try pbOK("copy", file)
        let model = BusyMainActorModel()
        let busy = Task { @MainActor in
            while !Task.isCancelled {
                model.job(milliseconds: 8)
                try? await Task.sleep(for: .milliseconds(2))
            }
        }
        try await model.load(socketPath: sandbox.socketPath)
        busy.cancel()
        _ = await busy.value
        XCTAssertGreaterThan(model.reports, 6)
        XCTAssertEqual(model.overlaps, 0, "\(model.overlaps) of \(model.reports) progress reports ran off the main actor or inside another of its jobs")
    }
}

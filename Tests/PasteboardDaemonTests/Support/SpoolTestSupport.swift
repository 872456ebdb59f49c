import Foundation
import NIOCore
@testable import PasteboardDaemon
import Synchronization
import XCTest

/// What the spool told its seams during a test: the credit granted and the durable steps.
final class SpoolRecorder: Sendable {
    private let state = Mutex<(granted: Int, steps: [SpoolSystem.Step])>((0, []))

    var granted: Int { state.withLock { $0.granted } }
    var steps: [SpoolSystem.Step] { state.withLock { $0.steps } }

    func grant(_ bytes: Int) {
        state.withLock { $0.granted += bytes }
    }

    func observe(_ step: SpoolSystem.Step) {
        state.withLock { $0.steps.append(step) }
    }
}

/// A private state directory with a started `SpoolIO`, removed afterwards.
struct SpoolFixture {
    let stateDirectory: String
    let io: SpoolIO

    init() throws {
        stateDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("pbspool-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: stateDirectory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        io = SpoolIO()
        io.start()
    }

    var dataDirectory: String { SpoolStore.directory(inStateDirectory: stateDirectory) }

    /// The names in `data/`, sorted (none when it does not exist).
    func dataNames() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dataDirectory)) ?? []).sorted()
    }

    func store(_ system: SpoolSystem = .live) -> SpoolStore {
        SpoolStore(stateDirectory: stateDirectory, io: io, system: system)
    }

    func tearDown() async {
        await io.shutdown()
        try? FileManager.default.removeItem(atPath: stateDirectory)
    }

    /// `count` bytes that differ from position to position, so a misplaced piece shows.
    static func pattern(_ count: Int, seed: UInt8 = 0) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8 &+ Int(seed)) }
    }
}

/// A test case with a fresh `SpoolFixture` for each test, shut down and removed after it.
class SpoolTestCase: XCTestCase {
    private(set) var fixture: SpoolFixture!

    override func setUpWithError() throws {
        try super.setUpWithError()
        fixture = try SpoolFixture()
    }

    override func tearDown() async throws {
        await fixture?.tearDown()
        try await super.tearDown()
    }
}

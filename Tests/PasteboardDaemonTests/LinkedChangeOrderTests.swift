import Foundation
import Logging
import NIOCore
@testable import PasteboardDaemon
import PasteboardProtocol
import PasteboardSystem
import PasteboardTypes
import XCTest

/// How the store orders changes that links bring from other machines (see `ChangeOrigin`): a
/// linked change is taken only when later than the content's origin, so that every machine
/// settles on the same winner whatever order the changes reach it in.
final class LinkedChangeOrderTests: XCTestCase {
    private var directory: String!
    private let otherMachine = String(repeating: "b", count: 32)

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("pborigin-\(UUID().uuidString.prefix(8))").path
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func texts(_ store: PasteboardStore) async -> [String] {
        await store.pasteboard(named: PasteboardName.general).items.compactMap { item in
            item.representations.first.flatMap { representation in
                if case .data(let buffers) = representation.content { String(decoding: buffers.flatMap { Array($0.readableBytesView) }, as: UTF8.self) } else { nil }
            }
        }
    }

    func testALocalCopyIsStampedWithThisMachineAndALaterClockEachTime() async throws {
        let machine = MachineIdentity(id: String(repeating: "a", count: 32), name: "alpha")
        let store = PasteboardStore(registry: .builtIn, machine: machine)
        try await store.replaceItems(of: PasteboardName.general, with: [.text("one")])
        let firstSummary = await store.summary(of: PasteboardName.general)
        let first = try XCTUnwrap(firstSummary.origin)
        try await store.replaceItems(of: PasteboardName.general, with: [.text("two")])
        let secondSummary = await store.summary(of: PasteboardName.general)
        let second = try XCTUnwrap(secondSummary.origin)
        XCTAssertEqual(first.machine, machine.id)
        XCTAssertEqual(first.name, "alpha")
        XCTAssertGreaterThan(second.clock, first.clock, "each change is later than the one before")
        XCTAssertGreaterThanOrEqual(first.clock, Int(Date().timeIntervalSince1970 * 1000) - 60_000, "the clock does not fall behind the wall clock")
    }

    func testAnEarlierLinkedChangeIsSupersededAndChangesNothing() async throws {
        let store = PasteboardStore(registry: .builtIn)
        try await store.replaceItems(of: PasteboardName.general, with: [.text("here")])
        let hereSummary = await store.summary(of: PasteboardName.general)
        let here = try XCTUnwrap(hereSummary.origin)
        let earlier = ChangeOrigin(machine: otherMachine, name: "beta", clock: here.clock - 1)
        do {
            try await store.replaceItems(of: PasteboardName.general, with: [.text("there")], conflict: .fail, origin: earlier)
            XCTFail("an earlier change replaced a later one")
        } catch {
            XCTAssertEqual(error.code, .superseded)
        }
        let kept = await texts(store)
        XCTAssertEqual(kept, ["here"])
        // The same change arriving twice (a ring of links) is taken once.
        let later = ChangeOrigin(machine: otherMachine, name: "beta", clock: here.clock + 1)
        try await store.replaceItems(of: PasteboardName.general, with: [.text("there")], conflict: .fail, origin: later)
        do {
            try await store.replaceItems(of: PasteboardName.general, with: [.text("there")], conflict: .fail, origin: later)
            XCTFail("the same linked change was taken twice")
        } catch {
            XCTAssertEqual(error.code, .superseded)
        }
        let changeCount = await store.summary(of: PasteboardName.general).changeCount
        XCTAssertEqual(changeCount, 2, "one local copy and one linked change")
    }

    func testEqualClocksAreDecidedByTheMachineIDTheSameWayEverywhere() async throws {
        let low = ChangeOrigin(machine: String(repeating: "1", count: 32), clock: 500)
        let high = ChangeOrigin(machine: String(repeating: "9", count: 32), clock: 500)
        for order in [[low, high], [high, low]] {
            let store = PasteboardStore(registry: .builtIn)
            for origin in order {
                _ = try? await store.replaceItems(of: "notes", with: [.text(origin.machine)], conflict: .fail, origin: origin)
            }
            let winner = await store.summary(of: "notes").origin
            XCTAssertEqual(winner, high, "the larger machine id wins whichever change came first")
        }
    }

    func testAfterALinkedChangeALocalCopyIsLaterThanIt() async throws {
        let store = PasteboardStore(registry: .builtIn)
        let future = ChangeOrigin(machine: otherMachine, clock: Int(Date().timeIntervalSince1970 * 1000) + 3_600_000)
        try await store.replaceItems(of: PasteboardName.general, with: [.text("from a fast clock")], conflict: .fail, origin: future)
        try await store.replaceItems(of: PasteboardName.general, with: [.text("mine")])
        let originSummary = await store.summary(of: PasteboardName.general)
        let origin = try XCTUnwrap(originSummary.origin)
        XCTAssertGreaterThan(origin, future, "a copy made after seeing a change is ordered after it (Lamport)")
    }

    func testAnInvalidOriginIsRefused() async throws {
        let store = PasteboardStore(registry: .builtIn)
        for origin in [ChangeOrigin(machine: "not-an-id", clock: 1), ChangeOrigin(machine: otherMachine, clock: -1),
                       ChangeOrigin(machine: otherMachine, clock: Int.max)] {
            do {
                try await store.replaceItems(of: "notes", with: [.text("x")], conflict: .fail, origin: origin)
                XCTFail("origin \(origin) was taken")
            } catch {
                XCTAssertEqual(error.code, .invalidArgument)
            }
        }
        let changeCount = await store.summary(of: "notes").changeCount
        XCTAssertEqual(changeCount, 0)
    }

    func testTheOriginAndTheMachineIDOutliveARestart() async throws {
        let machine = try MachineIdentity.load(stateDirectory: try prepared(directory))
        let store = PasteboardStore(registry: .builtIn, storage: try DurableStorage(directory: directory), machine: machine)
        await store.restore(logger: Logger(label: "test"))
        let linked = ChangeOrigin(machine: otherMachine, name: "beta", clock: 42)
        try await store.replaceItems(of: PasteboardName.general, with: [.text("from beta")], conflict: .fail, origin: linked)

        let again = try MachineIdentity.load(stateDirectory: directory)
        XCTAssertEqual(again.id, machine.id, "the machine id is kept in the state directory")
        let restored = PasteboardStore(registry: .builtIn, storage: try DurableStorage(directory: directory), machine: again)
        await restored.restore(logger: Logger(label: "test"))
        let origin = await restored.summary(of: PasteboardName.general).origin
        XCTAssertEqual(origin, linked)
        XCTAssertEqual(origin?.name, "beta")
        do {
            try await restored.replaceItems(of: PasteboardName.general, with: [.text("stale")], conflict: .fail,
                                            origin: ChangeOrigin(machine: otherMachine, clock: 41))
            XCTFail("after a restart an earlier change replaced the stored one")
        } catch {
            XCTAssertEqual(error.code, .superseded)
        }
        let history = try await restored.historyList().entries
        XCTAssertEqual(history.first?.origin?.name, "beta", "the history entry says where it came from")
    }

    private func prepared(_ directory: String) throws -> String {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return directory
    }
}

extension LinkedChangeOrderTests {
    func testTheSameChangeAgainReplacesOnlyWhatADroppedLinkLeftUnavailable() async throws {
        let store = PasteboardStore(registry: .builtIn)
        let link = FakePromiseOwner("pb link")
        let origin = ChangeOrigin(machine: otherMachine, name: "beta", clock: 7)
        try await store.replaceItems(of: "notes", with: [.promised(by: link, [(.png, 7)], size: 100)], conflict: .fail, origin: origin)
        await store.clientGone(link) { _ in "the link dropped" }
        let relinked = FakePromiseOwner("pb link, again")
        try await store.replaceItems(of: "notes", with: [.promised(by: relinked, [(.png, 8)], size: 100)], conflict: .fail, origin: origin)
        let summary = await store.summary(of: "notes")
        XCTAssertEqual(summary.changeCount, 2, "the link that came back offered the same change again, and it replaced the unavailable one")
        XCTAssertNil(summary.items.first?.representations.first?.unavailable)
        do {
            try await store.replaceItems(of: "notes", with: [.text("again")], conflict: .fail, origin: origin)
            XCTFail("the same change replaced content that is still available")
        } catch {
            XCTAssertEqual(error.code, .superseded)
        }
    }
}

@testable import PasteboardDaemon
import PasteboardProtocol
import PasteboardTypes
import XCTest

/// The limit on one eager representation follows where the daemon keeps its bytes, and the
/// refusal tells the user which limit it met, why, and what to do instead.
final class RepresentationLimitTests: XCTestCase {
    private func configuration(memoryOnly: Bool = false, maxRepresentationSize: Int? = nil, maxInMemorySize: Int? = nil) -> DaemonConfiguration {
        var configuration = DaemonConfiguration(socketPath: "/s")
        configuration.stateDirectory = memoryOnly ? nil : "/home/u/.local/state/pasteboard"
        if let maxRepresentationSize { configuration.maxRepresentationSize = maxRepresentationSize }
        if let maxInMemorySize { configuration.maxInMemorySize = maxInMemorySize }
        return configuration
    }

    private func message(_ limit: RepresentationLimit, item: Int = 0, representation: Int = 0, size: Int?) -> String {
        let error = limit.refusal(item: item, representation: representation, type: .data, size: size)
        XCTAssertEqual(error.code, .tooLarge)
        return error.message
    }

    func testADurableDaemonTakesUpTo256GiBOnDiskByDefault() {
        let limit = RepresentationLimit(.disk, configuration: configuration())
        XCTAssertEqual(limit.bytes, 256 << 30)
        XCTAssertTrue(limit.admits(4 << 30), "a 4 GiB copy fits on disk")
        XCTAssertTrue(limit.admits(256 << 30))
        XCTAssertFalse(limit.admits((256 << 30) + 1))
        XCTAssertEqual(
            message(limit, size: 300 << 30),
            "representation 0 (public.data) is 300.0 GiB, over max-representation-size (256.0 GiB); "
                + "copy it with --lazy (the data then stays in the copying program until pasted) or raise max-representation-size")
    }

    func testASensitiveItemIsBoundedByWhatIsKeptInMemoryAndSaysWhy() {
        let limit = RepresentationLimit(.memoryForSensitiveItem, configuration: configuration())
        XCTAssertEqual(limit.bytes, 256 << 20)
        XCTAssertTrue(limit.admits(256 << 20))
        XCTAssertFalse(limit.admits(300 << 20), "a durable daemon still keeps a secret off the disk")
        XCTAssertEqual(
            message(limit, size: 300 << 20),
            "representation 0 (public.data) is 300.0 MiB, over max-in-memory-size (256.0 MiB): "
                + "sensitive items are kept in memory only, never on disk; copy it with --lazy or raise max-in-memory-size")
    }

    func testAMemoryOnlyDaemonIsBoundedByWhatIsKeptInMemoryAndSaysWhy() {
        let limit = RepresentationLimit(.memoryOnlyDaemon, configuration: configuration(memoryOnly: true, maxInMemorySize: 1 << 20))
        XCTAssertEqual(limit.bytes, 1 << 20)
        XCTAssertEqual(
            message(limit, item: 2, representation: 1, size: 2 << 20),
            "representation 1 of item 2 (public.data) is 2.0 MiB, over max-in-memory-size (1.0 MiB): "
                + "the daemon runs --memory-only and writes nothing to disk; copy it with --lazy or raise max-in-memory-size")
    }

    func testTheSmallerLimitAppliesInMemoryAndIsTheOneNamed() {
        let limit = RepresentationLimit(.memoryOnlyDaemon, configuration: configuration(memoryOnly: true, maxRepresentationSize: 1000))
        XCTAssertEqual(limit.bytes, 1000, "a larger memory cap does not raise max-representation-size")
        XCTAssertEqual(
            message(limit, size: 1500),
            "representation 0 (public.data) is 1.5 KiB, over max-representation-size (1000 bytes); copy it with --lazy or raise max-representation-size")
        let disk = RepresentationLimit(.disk, configuration: configuration(maxRepresentationSize: 1 << 30, maxInMemorySize: 1000))
        XCTAssertEqual(disk.bytes, 1 << 30, "the memory cap does not bound what goes to disk")
    }

    func testAStreamWithoutADeclaredSizeIsRefusedAsLargerThanTheLimit() {
        let limit = RepresentationLimit(.memoryForSensitiveItem, configuration: configuration())
        XCTAssertEqual(
            message(limit, size: nil),
            "representation 0 (public.data) is larger than max-in-memory-size (256.0 MiB): "
                + "sensitive items are kept in memory only, never on disk; copy it with --lazy or raise max-in-memory-size")
    }

    func testASizeJustOverTheLimitIsShownInBytesRatherThanRoundedToIt() {
        let limit = RepresentationLimit(.disk, configuration: configuration(maxRepresentationSize: 256 << 20))
        XCTAssertTrue(message(limit, size: (256 << 20) + 1).hasPrefix(
            "representation 0 (public.data) is 268435457 bytes, over max-representation-size (268435456 bytes);"))
    }

    func testTheLiveValuesApplyToTheNextLimit() {
        let live = LiveConfiguration(configuration())
        var reloaded = live.current
        reloaded.maxInMemorySize = 1 << 20
        live.apply(reloaded)
        XCTAssertEqual(RepresentationLimit(.memoryForSensitiveItem, configuration: live.current).bytes, 1 << 20)
    }

    func testSensitiveItemsAndMemoryOnlyDaemonsKeepTheirBytesInMemory() {
        XCTAssertEqual(RepresentationLimit.Place.of(sensitive: false, in: configuration()), .disk)
        XCTAssertEqual(RepresentationLimit.Place.of(sensitive: true, in: configuration()), .memoryForSensitiveItem)
        XCTAssertEqual(RepresentationLimit.Place.of(sensitive: false, in: configuration(memoryOnly: true)), .memoryOnlyDaemon)
        XCTAssertEqual(RepresentationLimit.Place.of(sensitive: true, in: configuration(memoryOnly: true)), .memoryForSensitiveItem,
                       "the item's own reason comes first")
    }
}

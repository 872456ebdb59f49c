#if canImport(Glibc)
import Glibc
#endif
import Foundation
@testable import PasteboardDaemon
import PasteboardProtocol
import PasteboardSystem
import PasteboardTypes
import XCTest

/// A file representation's path is checked (`stat`, `access`) off the connection's event loop
/// (issue 40): `checkFiles` does it on a thread of its own, and the assembly uses its answers
/// instead of looking at the file again on the loop.
final class WriteAssemblyFileCheckTests: XCTestCase {
    private var directory: String!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("pbfiles-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func items(_ paths: [String]) -> [ItemInfo] {
        [ItemInfo(representations: paths.enumerated().map { RepresentationInfo(type: "public.data\($0.offset)", file: $0.element) })]
    }

    func testTheChecksSayTheSizeOrWhyAFileCannotBeUsed() async throws {
        let regular = directory + "/ten.bin"
        try Data(repeating: 1, count: 10).write(to: URL(fileURLWithPath: regular))
        let fifo = directory + "/a.fifo"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let missing = directory + "/missing"
        let checks = await WriteAssembly.checkFiles(of: items([regular, fifo, missing, "relative/path"]))
        XCTAssertEqual(checks[regular], .size(10))
        XCTAssertEqual(checks[fifo], .refused("not a regular file"))
        XCTAssertEqual(checks[missing], .refused(SystemError.describe(ENOENT)))
        XCTAssertNil(checks["relative/path"], "a relative path is refused without a look at the disk")
        let none = await WriteAssembly.checkFiles(of: [ItemInfo(representations: [RepresentationInfo(type: "public.data", size: 3)])])
        XCTAssertEqual(none, [:])
    }

    /// The assembly takes the checks it is given: it does not `stat` the path itself (which it
    /// did, on the event loop, before), and refuses with the check's reason.
    func testTheAssemblyUsesTheChecksItIsGiven() throws {
        let path = directory + "/not-looked-at"  // does not exist: only the given check knows a size
        let request = WriteRequest(pasteboard: "files", items: items([path]))
        let configuration = DaemonConfiguration(socketPath: "")
        let assembly = try WriteAssembly(request, source: FakePromiseOwner("pb"), registry: .builtIn, configuration: configuration,
                                         files: [path: .size(42)])
        XCTAssertTrue(assembly.isComplete)
        XCTAssertThrowsError(try WriteAssembly(request, source: FakePromiseOwner("pb"), registry: .builtIn, configuration: configuration,
                                               files: [path: .refused("not a regular file")])) { error in
            XCTAssertEqual((error as? ProtocolError)?.code, .invalidArgument)
            XCTAssertTrue("\(error)".contains("not a regular file"), "\(error)")
        }
    }
}

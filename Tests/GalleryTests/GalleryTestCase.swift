import Foundation
import GalleryModel
import XCTest

/// Base class giving every test its own temporary directory and helpers for writing fixtures.
class GalleryTestCase: XCTestCase {
    var directory = ""

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("gallery-tests-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try FileManager.default.removeItem(atPath: directory)
    }

    func path(_ name: String) -> String { directory + "/" + name }

    var gallery: GalleryFile { GalleryFile(path: path("gallery.json")) }

    @discardableResult
    func write(_ bytes: [UInt8], to name: String) throws -> String {
        try Data(bytes).write(to: URL(fileURLWithPath: path(name)))
        return path(name)
    }

    func contents(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map(Array.init)
    }

    /// A PNG signature, an IHDR chunk with a zero CRC, and a dummy IEND chunk.
    static func png(width: UInt32, height: UInt32) -> [UInt8] {
        var bytes: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13] + Array("IHDR".utf8)
        for value in [width, height] {
            bytes += [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) }
        }
        bytes += [8, 6, 0, 0, 0] + [0, 0, 0, 0]
        return bytes + [0, 0, 0, 0] + Array("IEND".utf8) + [0xAE, 0x42, 0x60, 0x82]
    }

    /// Adds entries titled by `titles` (each a 1x1 PNG) and returns their ids.
    func addImages(_ titles: [String], to file: GalleryFile? = nil) throws -> [String] {
        let source = try write(Self.png(width: 1, height: 1), to: "source-\(UUID().uuidString).png")
        return try titles.map { try (file ?? gallery).add(imageAt: source, title: $0).id }
    }

    func titles() throws -> [String] { try gallery.read().images.map(\.title) }
}

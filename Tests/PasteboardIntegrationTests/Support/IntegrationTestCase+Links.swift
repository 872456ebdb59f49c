import Foundation

extension IntegrationTestCase {
    /// The sandbox's `bin`, where `pb install-links` made every drop-in name (`xclip`, `wl-copy`,
    /// …), for a `PATH` that puts them before the real tools.
    func installedLinks() throws -> String {
        let directory = sandbox.path("bin")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try pbOK("install-links", directory)
        return directory
    }
}

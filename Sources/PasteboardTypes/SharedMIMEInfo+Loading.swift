#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Finding and reading shared-mime-info databases.
extension SharedMIMEInfo {
    /// Files larger than this are not read (real ones are a few tens of kilobytes).
    static let maximumFileSize = 4 << 20

    /// The `mime` directory of every XDG data directory, most important first:
    /// `$XDG_DATA_HOME/mime` (default `~/.local/share/mime`), then `<dir>/mime` for each
    /// absolute entry of `$XDG_DATA_DIRS` (default `/usr/local/share:/usr/share`).
    ///
    /// This is the search order of the shared-mime-info spec. Nothing is read here.
    public static func databaseDirectories(environment: [String: String]) -> [String] {
        XDGBaseDirectory.dataDirectories(environment: environment).map { XDGBaseDirectory.joined($0, "mime") }
    }

    /// Reads the `subclasses` and `aliases` files of each directory in `directories` (such as
    /// `/usr/share/mime`) and merges them, earlier directories winning (see ``merging(_:)``).
    ///
    /// A missing, unreadable, oversized or non-regular file counts as empty; bad lines are
    /// skipped. Never fails: with nothing readable the result is empty.
    public init(contentsOf directories: [String]) {
        self = Self.reading(.aliases, in: directories).merging(Self.reading(.subclasses, in: directories))
    }

    /// One of the two files of a database.
    enum File: String {
        case subclasses, aliases
    }

    /// A database with only `file` read from each of `directories`, merged as ``init(contentsOf:)`` does.
    ///
    /// Resolving an alias needs only the `aliases` files, so ``TypeRegistry/type(forMIMEType:)``
    /// reads no more than those.
    static func reading(_ file: File, in directories: [String]) -> SharedMIMEInfo {
        directories.reduce(SharedMIMEInfo()) { merged, directory in
            let data = contents(atPath: XDGBaseDirectory.joined(directory, file.rawValue))
            return merged.merging(file == .subclasses
                ? SharedMIMEInfo(subclasses: data, aliases: Data())
                : SharedMIMEInfo(subclasses: Data(), aliases: data))
        }
    }

    /// The bytes of the file at `path`, or none when it is missing,
    /// unreadable, not a regular file (after following symbolic links; a FIFO would block) or
    /// larger than ``maximumFileSize``.
    private static func contents(atPath path: String) -> Data {
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: resolved),
            attributes[.type] as? FileAttributeType == .typeRegular,
            // A UInt, or an NSNumber when all of Foundation is loaded (which casts to UInt too).
            let size = attributes[.size] as? UInt, size <= maximumFileSize,
            let data = FileManager.default.contents(atPath: resolved)
        else { return Data() }
        return data.prefix(maximumFileSize)
    }
}

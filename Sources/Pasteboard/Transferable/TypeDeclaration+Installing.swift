#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif
import PasteboardTypes

/// Installing an app's type declarations for good, as the user's declaration file.
extension TypeDeclaration {
    /// Writes `declarations` as the user's declaration file
    /// `$XDG_CONFIG_HOME/pasteboard/types.d/NAME.json` (pasteboard-types(5)), naming `app` as
    /// its owner, and returns its path.
    ///
    /// Why: types an app declares when it connects (`PasteboardConnection.withConnection(declaring:)`)
    /// last only as long as the daemon runs, and only once the app has connected; a declaration
    /// file makes them known to `pb`, to other apps and to the daemon from its start, whether
    /// the app runs or not. Installing again with the same `fileName` replaces the file (an
    /// app's upgrade), whole or not at all: written to a hidden temporary file beside it, then
    /// renamed over it, mode 0644, in a directory created mode 0700 where missing and checked to
    /// be the user's own.
    ///
    /// The declarations are checked first, against the built-in types and the other files of
    /// `types.d` exactly as they will be read (a file may use types of files whose names sort
    /// before its own): a bad declaration, a clash with another file's, or a change that would
    /// break another file's declarations throws `TypeDeclarationError` and writes nothing.
    /// Problems other files already had are not this file's and do not stop it (but a daemon
    /// reloads `types.d` all or nothing: it reads none of the files until they are fixed). Types
    /// that apps declared to the running daemon are not consulted: a file's declaration wins over
    /// theirs when the daemon reads it.
    ///
    /// The file names `app`, the application the declarations belong to: that app, and no
    /// other, may replace them when it connects (`PasteboardConnection.withConnection(app:declaring:)`),
    /// so an upgraded app that installs its new declarations and declares them when it connects
    /// never conflicts with the file an earlier version installed, whichever comes first and
    /// whether or not the daemon has read the new file yet. Another app declaring one of these
    /// types differently is refused with `PasteboardError.Code.typeConflict`.
    ///
    /// The running daemon reads the file on SIGHUP (`systemctl --user reload pasteboardd`) or
    /// when it next starts; this function does not signal it: the app's own declarations at
    /// connect bring the daemon up to date (SIGHUP would also reload the daemon's configuration
    /// file, which the caller did not ask for, and the daemon's pid comes from a socket that may
    /// be forwarded from another machine).
    ///
    /// - Parameters:
    ///   - declarations: The declarations, in the order they are written.
    ///   - fileName: The file's name without `.json` (a name ending in `.json` is taken as is),
    ///     such as the app's identifier `com.example.notes`: not empty, no `/`, not starting with
    ///     a dot. Files are read in order of their names.
    ///   - app: The application name the app connects with (`withConnection`'s `app`, which
    ///     defaults to its `clientName`); by default the file name without `.json`.
    ///   - environment: Where `XDG_CONFIG_HOME` and `HOME` are looked up (this process's by default).
    /// - Throws: `TypeDeclarationError` for a bad file name or declaration (nothing written);
    ///   `PasteboardError.io` when the directory or file cannot be made or is not the user's.
    @discardableResult
    public static func install(
        _ declarations: [TypeDeclaration], fileName: String, app: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> String {
        let name = fileName.hasSuffix(".json") ? fileName : fileName + ".json"
        if let problem = Self.fileNameProblem(name) {
            throw TypeDeclarationError(file: fileName, field: "(file name)", message: problem)
        }
        let owner = app ?? String(name.dropLast(".json".count))
        guard let directory = TypeRegistry.userTypesDirectory(environment: environment) else {
            throw PasteboardError.io("no directory for type declarations: neither XDG_CONFIG_HOME nor HOME is an absolute path")
        }
        let bytes = try Self.fileContents(declarations, app: owner)
        let path = directory + "/" + name
        let now = TypeRegistry.loading(userTypesDirectory: directory).errors
        let installed = TypeRegistry.loading(userTypesDirectory: directory, replacingFile: name, with: Data(bytes)).errors
        if let own = installed.first(where: { $0.file == path }) { throw own }
        if let broken = installed.first(where: { !now.contains($0) }) {
            throw TypeDeclarationError(file: broken.file, field: broken.field, message: "\(broken.message), once \(name) is installed")
        }
        try OwnFileWriter.prepareDirectory(directory)
        return try OwnFileWriter.replace(name, in: directory, with: bytes)
    }

    /// The declaration file holding `declarations` of `app`: `{"app": ..., "types": [...]}`,
    /// indented, with a final newline.
    private static func fileContents(_ declarations: [TypeDeclaration], app: String) throws -> [UInt8] {
        struct File: Encodable { var app: String; var types: [TypeDeclaration] }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .withoutEscapingSlashes]
        return Array(try encoder.encode(File(app: app, types: declarations))) + [UInt8(ascii: "\n")]
    }

    /// Why `name` (with `.json`) cannot be a declaration file's name; nil when it can.
    private static func fileNameProblem(_ name: String) -> String? {
        let stem = name.dropLast(".json".count)
        if stem.isEmpty { return "the file name is empty" }
        if name.contains("/") || name.contains("\0") { return "the file name '\(name)' contains a '/' or a NUL" }
        if name.hasPrefix(".") { return "the file name '\(name)' starts with a dot: the file would be hidden, and not read" }
        if name.utf8.count > 255 { return "the file name is longer than 255 bytes" }
        return nil
    }
}

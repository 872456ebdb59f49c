#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
import Foundation
#endif

/// Reading declaration files.
extension TypeRegistry {
    /// Parses a declaration file's bytes (format below) – used for types.d files and by apps.
    ///
    /// Format: `{"types": [ {"identifier": …, "conformsTo": […], "mimeTypes": […],
    /// "filenameExtensions": […], "magic": [{"offset": 0, "bytes": "hex"}], "description": …} ]}`.
    /// Only structure is checked here; ``adding(_:source:)`` checks identifiers, parents and clashes.
    public static func parseDeclarationFile(
        _ data: Data, source: String
    ) -> (declarations: [TypeDeclaration], errors: [TypeDeclarationError]) {
        let parsed = DeclarationParser.file(data)
        return (
            parsed.entries.map(\.declaration),
            parsed.problems.map { TypeDeclarationError(file: source, field: $0.field, message: $0.message) }
        )
    }


    /// Built-ins plus every `*.json` in `directory` (sorted by file name); missing directory is not an error.
    ///
    /// Files are added one after another, so a file may use types declared in files sorting before it.
    /// Hidden files (starting with `.`) are ignored. Each error names the file's path and the field.
    public static func loading(
        userTypesDirectory directory: String?
    ) -> (registry: TypeRegistry, errors: [TypeDeclarationError]) {
        guard let directory else { return (TypeRegistry.builtIn, []) }
        return loading(userTypesDirectory: directory, overlay: nil)
    }

    /// What ``loading(userTypesDirectory:)`` would give if the file called `name` in `directory`
    /// held `contents` (nil: if there were no such file), without touching it: to check a
    /// declaration file before it is written, against the files it will be read with.
    ///
    /// `name` is a file name (no `/`); one not ending in `.json`, or hidden, is not read anyway.
    public static func loading(
        userTypesDirectory directory: String, replacingFile name: String, with contents: Data?
    ) -> (registry: TypeRegistry, errors: [TypeDeclarationError]) {
        loading(userTypesDirectory: directory, overlay: (name, contents))
    }

    /// `loading(userTypesDirectory:)`, with the file `overlay.name` holding `overlay.contents` when given.
    private static func loading(
        userTypesDirectory directory: String, overlay: (name: String, contents: Data?)?
    ) -> (registry: TypeRegistry, errors: [TypeDeclarationError]) {
        var registry = TypeRegistry.builtIn
        var names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            guard !FileManager.default.fileExists(atPath: directory) else {
                return (registry, [TypeDeclarationError(file: directory, field: "(directory)", message: "cannot read directory: \(error)")])
            }
            names = []
        }
        if let overlay {
            names.removeAll { $0 == overlay.name }
            if overlay.contents != nil { names.append(overlay.name) }
        }
        var errors: [TypeDeclarationError] = []
        // One batch for all the files: each validated against those before it, the indices built once.
        var batch = DeclarationBatch(registry)
        let base = directory.hasSuffix("/") ? directory : directory + "/"
        for name in names.sorted() where name.hasSuffix(".json") && !name.hasPrefix(".") {
            let path = base + name
            guard let data = overlay?.name == name ? overlay?.contents : FileManager.default.contents(atPath: path) else {
                errors.append(TypeDeclarationError(file: path, field: "(file)", message: "cannot read file"))
                continue
            }
            errors += batch.addDeclarationFile(data, source: path)
        }
        registry = batch.registry
        return (registry, errors)
    }

    /// The registry a program gets from its `environment`: built-ins, the user's declarations from
    /// ``userTypesDirectory(environment:)``, and the shared-mime-info databases of
    /// ``SharedMIMEInfo/databaseDirectories(environment:)`` for undeclared MIME types.
    ///
    /// Only the user's declarations are read now; shared-mime-info is read when first needed (see
    /// ``usingSharedMIMEInfo(from:)``), so this stays cheap for short-lived commands.
    public static func loading(environment: [String: String]) -> (registry: TypeRegistry, errors: [TypeDeclarationError]) {
        let (registry, errors) = loading(userTypesDirectory: userTypesDirectory(environment: environment))
        return (registry.usingSharedMIMEInfo(from: SharedMIMEInfo.databaseDirectories(environment: environment)), errors)
    }

    /// `loading(environment:)` with this process's environment: reads only the variables the
    /// XDG rules use, instead of copying the whole environment into a dictionary.
    public static func loadingFromProcessEnvironment() -> (registry: TypeRegistry, errors: [TypeDeclarationError]) {
        var environment: [String: String] = [:]
        for name in XDGBaseDirectory.variables {
            if let value = getenv(name) { environment[name] = String(cString: value) }
        }
        return loading(environment: environment)
    }

    /// `$XDG_CONFIG_HOME/pasteboard/types.d` or `$HOME/.config/pasteboard/types.d` from the given environment.
    ///
    /// A relative or empty `XDG_CONFIG_HOME` is ignored, as the XDG Base Directory spec requires;
    /// `nil` when neither variable gives an absolute path.
    public static func userTypesDirectory(environment: [String: String]) -> String? {
        userTypesDirectory { environment[$0] }
    }

    /// `userTypesDirectory(environment:)` with the environment's values given by `value`.
    static func userTypesDirectory(value: (String) -> String?) -> String? {
        XDGBaseDirectory.home("XDG_CONFIG_HOME", fallback: ".config", value: value)
            .map { XDGBaseDirectory.joined($0, "pasteboard/types.d") }
    }

    /// Whether this process's user declares types: `loading(userTypesDirectory:)` would read
    /// at least one file (or report a directory it cannot read).
    static func processUserDeclaresTypes() -> Bool {
        guard let directory = userTypesDirectory(value: { name in getenv(name).map { String(cString: $0) } }) else { return false }
        guard let stream = opendir(directory) else { return errno != ENOENT && errno != ENOTDIR }
        defer { closedir(stream) }
        return DirectoryEntries.names(of: stream).contains { $0.hasSuffix(".json") && !$0.hasPrefix(".") }
    }

    /// Errors sorted by the index in their field's `types[N]` (stable; file-level errors first).
    static func inFieldOrder(_ errors: [TypeDeclarationError]) -> [TypeDeclarationError] {
        func key(_ error: TypeDeclarationError) -> Int {
            guard error.field.hasPrefix("types["), let close = error.field.firstIndex(of: "]") else { return -1 }
            let digits = error.field[error.field.index(error.field.startIndex, offsetBy: 6)..<close]
            return Int(digits) ?? -1
        }
        return errors.enumerated().sorted {
            let (a, b) = (key($0.element), key($1.element))
            return a != b ? a < b : $0.offset < $1.offset
        }.map(\.element)
    }
}

// swift-tools-version:6.0
import PackageDescription

/// A third-party client of the Pasteboard library, as an app author writes one: a separate
/// package that depends on the library by path and names its products, as a user's package
/// would. ClientPackageTests builds it (`--scratch-path <repo>/.build/client-package`) and runs
/// `notes` against a real pasteboardd and `pb`.
///
/// Warnings are errors for this package's own targets only (a local package may use
/// unsafeFlags): the library's users build their code that way, not their dependencies.
let warningsAsErrors: [SwiftSetting] = [.unsafeFlags(["-warnings-as-errors"])]

/// `import Pasteboard` brings the type identifiers too: the one product an app names.
let pasteboard: [Target.Dependency] = [
    .product(name: "Pasteboard", package: "Pasteboard"),
]

let package = Package(
    name: "NotesApp",
    dependencies: [
        // The repository's root. `name:` keeps the package's name independent of the
        // directory the repository was cloned into (a path dependency's identity is its
        // directory's name).
        .package(name: "Pasteboard", path: "../../.."),
    ],
    targets: [
        // The app: a Note model with its own declared type, copy-and-serve, paste with a
        // fallback to text, drag and drop, all from a @MainActor view model.
        .executableTarget(name: "notes", dependencies: pasteboard, swiftSettings: warningsAsErrors),
        // The Swift blocks of README.md and the man pages, compiled against the library:
        // ReadmeSnippetTests writes them into Snippets/Generated (git-ignored) beside the
        // committed context that declares the names the blocks take as given.
        .target(name: "ReadmeSnippets", dependencies: pasteboard, path: "Snippets", swiftSettings: warningsAsErrors),
    ],
    swiftLanguageModes: [.v6]
)

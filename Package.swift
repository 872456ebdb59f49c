// swift-tools-version:6.0
import PackageDescription

/// Release executables link the Swift runtime statically so they start fast from shell loops
/// (no dynamic loading of libswiftCore, Foundation and friends); debug builds stay dynamic.
/// FoundationEssentials' static archive needs its two helper archives named explicitly.
let staticStdlib: [LinkerSetting] = [
    .unsafeFlags(["-static-stdlib", "-l_FoundationCollections", "-l_FoundationCShims"], .when(configuration: .release)),
]

/// pb, run from shell loops, links fully statically in release builds: with no dynamic loader
/// at start-up there is no relocating of libstdc++ (callgrind: 2.5 of the 3.8 million
/// instructions of a 16-byte `pb paste`). pb looks up no users or hosts, so static glibc's
/// NSS limits do not touch it.
let staticExecutable: [LinkerSetting] = [
    .unsafeFlags(["-static-executable", "-l_FoundationCollections", "-l_FoundationCShims"], .when(configuration: .release)),
]

let package = Package(
    name: "Pasteboard",
    products: [
        .library(name: "Pasteboard", targets: ["Pasteboard"]),
        .library(name: "PasteboardTypes", targets: ["PasteboardTypes"]),
        .executable(name: "pb", targets: ["pb"]),
        .executable(name: "pasteboardd", targets: ["pasteboardd"]),
        .executable(name: "pasteboard-bridge", targets: ["pasteboard-bridge"]),
        .executable(name: "gallery", targets: ["gallery"]),
        .executable(name: "pasteboard-bench", targets: ["pasteboard-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        // System calls SwiftNIO does not offer: peer credentials, detached spawning, fd passing.
        .target(name: "CPasteboardSystem"),
        // JSON, read and written by hand (one reader, the tape; one writer) for the protocol's messages, the type
        // declarations and the daemon's archive headers; not a product: nothing outside the package should depend on it,
        // so it may change with the protocol. No Foundation, so that pb stays free of it.
        .target(name: "PasteboardJSON"),
        // What every program shares about the system it runs on, none of it on the wire: where the installation
        // keeps things (the socket's location, the companion programs, the bridge's status file, the release), the
        // process (its environment, the words of an errno, paths made absolute), the rules for what a user types
        // (pasteboard names, spans of seconds, byte counts), and a one-way latch. Not a product.
        .target(name: "PasteboardSystem"),
        // Type registry: identifiers, conformance, MIME/extension tags, sniffing. No I/O beyond reading declaration files
        // and, lazily, the shared-mime-info subclasses and aliases.
        .target(name: "PasteboardTypes", dependencies: ["PasteboardJSON"]),
        // How pasteboard types appear on the desktop clipboards (X11 targets, Wayland MIME types, plain text's many
        // names, the password managers' hints, plumbing): the bridge's policy, which pb's compatibility modes and
        // `pb types --desktop` present the same way. Not a product: it is not the app author's type registry.
        .target(name: "PasteboardDesktopTypes", dependencies: ["PasteboardTypes"]),
        // The wire format: frames, messages, error codes, flow-control bookkeeping.
        .target(
            name: "PasteboardProtocol",
            dependencies: [
                "PasteboardJSON", "PasteboardTypes",
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        // The daemon: connections, named pasteboards, transfers, limits.
        .target(
            name: "PasteboardDaemon",
            dependencies: [
                "PasteboardProtocol", "PasteboardTypes", "PasteboardJSON", "PasteboardSystem", "CPasteboardSystem",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]
        ),
        // The client library apps and `pb` use.
        .target(
            name: "Pasteboard",
            dependencies: [
                "PasteboardProtocol", "PasteboardTypes", "PasteboardSystem", "CPasteboardSystem",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // The Wayland side of the desktop bridge: the wire protocol spoken directly (no
        // libwayland-client, so the daemon stays free of display libraries and statically
        // linkable), and data control (ext-data-control-v1, else wlr) on top. Plain blocking
        // sockets through CPasteboardSystem's SCM_RIGHTS helpers and one event thread, not NIO:
        // a few small messages with several descriptors each, which NIO's channels do not carry.
        .target(name: "PasteboardWayland", dependencies: ["PasteboardSystem", "CPasteboardSystem"]),
        // X11 spoken directly (no libxcb or libX11, so the daemon stays free of display libraries and
        // statically linkable): DISPLAY and Xauthority, the connection setup, the requests, replies and
        // events of selections and XFIXES, the ICCCM selection reader and owner (INCR both ways). Blocking
        // sockets with poll, one thread per connection: no NIO.
        .target(name: "PasteboardX11", dependencies: ["PasteboardSystem"]),
        // The desktop bridge, a client of the daemon through the public library as a third-party
        // clipboard tool would be: the X11 and Wayland importers and exporters (desktop copies
        // become pasteboard items, small text captured at once, the rest fetched from the owner
        // when loaded; pasteboard changes offered to the desktop, served by streaming loads),
        // the X11 clipboard-manager duty, and the bridge that runs them (pasteboard-bridge).
        // zlib, for the PNG previews a drag handle draws (Debian's zlib1g-dev).
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .target(
            name: "PasteboardDesktop",
            dependencies: ["Pasteboard", "PasteboardTypes", "PasteboardDesktopTypes", "PasteboardSystem", "PasteboardX11", "PasteboardWayland", "CZlib"]
        ),
        // Links between daemons on several machines over the user's ssh: the link protocol's messages, the session
        // that offers changes and fetches promised bytes both ways, the ssh process, and the status files. A client
        // of the daemon through the library, like the desktop bridge; `pb link` runs it.
        .target(
            name: "PasteboardLink",
            dependencies: [
                "Pasteboard", "PasteboardProtocol", "PasteboardTypes", "PasteboardJSON", "PasteboardSystem", "CPasteboardSystem",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // The example app's model: the gallery file, its images and placeholders (no pasteboard code).
        .target(name: "GalleryModel", dependencies: ["PasteboardTypes", "PasteboardSystem"]),
        // The example app: the seeds' Image Gallery as a command-line drag source and drop target.
        // The desktop bridge's process: thin; the bridge is PasteboardDesktop.
        .executableTarget(
            name: "pasteboard-bridge",
            dependencies: [
                "PasteboardDesktop", "Pasteboard", "PasteboardTypes", "PasteboardDesktopTypes", "PasteboardSystem", "CPasteboardSystem",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            linkerSettings: staticStdlib
        ),
        .executableTarget(
            name: "gallery",
            dependencies: [
                "GalleryModel", "Pasteboard", "PasteboardTypes", "PasteboardProtocol", "PasteboardSystem", "PasteboardCLI", "CPasteboardSystem",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            linkerSettings: staticStdlib
        ),
        .executableTarget(
            name: "pasteboardd",
            dependencies: [
                "PasteboardDaemon", "PasteboardTypes", "PasteboardSystem",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            linkerSettings: staticStdlib
        ),
        // What pb and gallery share: output, exit statuses, progress display, signals, atomic files.
        .target(
            name: "PasteboardCLI",
            dependencies: [
                "Pasteboard", "PasteboardTypes", "PasteboardSystem",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        .executableTarget(
            name: "pb",
            dependencies: [
                "Pasteboard", "PasteboardTypes", "PasteboardDesktopTypes", "PasteboardProtocol", "PasteboardSystem",
                "PasteboardCLI", "PasteboardLink", "CPasteboardSystem",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            linkerSettings: staticExecutable
        ),
        // Measurements against a daemon it starts, with baselines from the same run: the goals' table, and soak.
        .executableTarget(
            name: "pasteboard-bench",
            dependencies: [
                "Pasteboard", "PasteboardProtocol", "PasteboardTypes", "PasteboardSystem",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            linkerSettings: staticStdlib
        ),
        // Fuzz targets: the frame decoder, the message decoder, the declaration parser, and the desktop bridge's X11
        // and Wayland decoders and state machines, with their invariants. Not the daemon: the tests replaying these
        // targets' inputs need not build it.
        .target(
            name: "PasteboardFuzzing",
            dependencies: [
                "PasteboardProtocol", "PasteboardTypes", "PasteboardSystem", "PasteboardX11", "PasteboardWayland",
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        // The fuzz target of request handling: validation and handling against an in-memory store (the daemon's
        // RequestRehearsal), apart from PasteboardFuzzing so that only pasteboard-fuzz and the daemon's tests build the daemon.
        .target(
            name: "PasteboardDaemonFuzzing",
            dependencies: [
                "PasteboardDaemon", "PasteboardFuzzing", "PasteboardProtocol",
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        // The libFuzzer binary (built with --sanitize fuzzer -Xswiftc -DFUZZING), else a replayer of inputs.
        .executableTarget(name: "pasteboard-fuzz", dependencies: ["PasteboardFuzzing", "PasteboardDaemonFuzzing"]),
        .testTarget(name: "PasteboardJSONTests", dependencies: ["PasteboardJSON"]),
        .testTarget(name: "PasteboardSystemTests", dependencies: ["PasteboardSystem"]),
        .testTarget(name: "PasteboardTypesTests", dependencies: ["PasteboardTypes", "PasteboardFuzzing"]),
        .testTarget(
            name: "PasteboardProtocolTests",
            dependencies: [
                "PasteboardProtocol", "PasteboardTypes", "PasteboardJSON", "PasteboardSystem", "PasteboardFuzzing",
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOEmbedded", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "PasteboardTests",
            dependencies: ["Pasteboard", "PasteboardTypes", "PasteboardProtocol", "TestSupport", .product(name: "NIOCore", package: "swift-nio")]
        ),
        .testTarget(
            name: "PasteboardDaemonTests",
            dependencies: [
                "PasteboardDaemon", "PasteboardDaemonFuzzing", "PasteboardFuzzing", "PasteboardProtocol", "PasteboardTypes",
                "PasteboardJSON", "PasteboardSystem", "CPasteboardSystem",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // What the test targets share: waiting for an event (`eventually`), and a headless sway of the test's own.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "PasteboardWaylandTests", dependencies: ["PasteboardWayland", "PasteboardFuzzing", "TestSupport"]),
        .testTarget(name: "PasteboardX11Tests", dependencies: ["PasteboardX11", "PasteboardFuzzing", "TestSupport"]),
        .testTarget(
            name: "PasteboardDesktopTests",
            dependencies: ["PasteboardDesktop", "Pasteboard", "PasteboardTypes", "PasteboardDesktopTypes", "PasteboardX11", "PasteboardWayland"]
        ),
        .testTarget(name: "GalleryTests", dependencies: ["GalleryModel", "PasteboardTypes"]),
        .testTarget(
            name: "PasteboardLinkTests",
            dependencies: ["PasteboardLink", "PasteboardProtocol", "PasteboardSystem", .product(name: "NIOCore", package: "swift-nio")]
        ),
        .testTarget(
            name: "PasteboardIntegrationTests",
            dependencies: [
                "Pasteboard", "PasteboardTypes", "PasteboardDesktopTypes", "PasteboardProtocol", "PasteboardSystem",
                "CPasteboardSystem", "PasteboardX11", "PasteboardWayland", "PasteboardDesktop", "TestSupport",
                // The in-process fixture (Support/InProcessDaemon): the daemon's server in the test process.
                "PasteboardDaemon",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            // The public API's baselines (PublicAPITests reads them from the source tree).
            exclude: ["PublicAPI"]
        ),
    ],
    swiftLanguageModes: [.v6]
)

/// Every Swift target says what it imports and how far: an import is internal unless marked
/// `public` or `package` (so a module's public API cannot leak a dependency by accident), and a
/// member is visible only where its module is imported (so each file names what it uses, and a
/// target's dependencies in this manifest are the modules its files import).
let explicitImports: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]
for target in package.targets where target.type != .system && target.name != "CPasteboardSystem" {
    target.swiftSettings = (target.swiftSettings ?? []) + explicitImports
}

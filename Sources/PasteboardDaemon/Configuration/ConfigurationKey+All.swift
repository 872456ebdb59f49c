import PasteboardProtocol
import PasteboardSystem

extension ConfigurationKey {
    /// Every key, in the order the shipped `Config/pasteboardd.conf` and pasteboardd(8) list them:
    /// first those a reload applies, then those that need a restart.
    package static let all: [ConfigurationKey] = [
        .maxRepresentationSize, .maxInMemorySize, .maxItems, .maxConnections, .maxLoadsPerConnection,
        .handshakeTimeout, .idleTimeout, .sessionTimeout, .desktopDrags, .captureBudget,
        .historyItems, .historyBytes, .historyTransientSeconds, .logLevel,
        .maxFrameLength, .window, .stateDirectory, .memoryOnly, .noHandoff,
        .noBridge, .bridgeRemoteDisplay, .durablePrimary,
        .machineName, .link, .linkSSH, .linkRemotePB, .linkPasteboards, .linkSensitive, .linkCapture,
    ]

    /// `max-representation-size`: the largest eager representation taken, on disk or in memory.
    package static let maxRepresentationSize = size("max-representation-size", \.maxRepresentationSize, minimum: 1)
    /// `max-in-memory-size`: the largest eager representation kept in memory (a sensitive item's, or any on a memory-only daemon).
    package static let maxInMemorySize = size("max-in-memory-size", \.maxInMemorySize, minimum: 1)
    /// `max-items`: the most items on one pasteboard, and in one drag or add request.
    package static let maxItems = count("max-items", \.maxItemsPerPasteboard, minimum: 1)
    /// `max-connections`: the most connections served at once.
    package static let maxConnections = count("max-connections", \.maxConnections, minimum: 1)
    /// `max-loads-per-connection`: the most reads one connection may have in flight.
    package static let maxLoadsPerConnection = count("max-loads-per-connection", \.maxLoadsPerConnection, minimum: 1)
    /// `handshake-timeout`: seconds a new connection has to send its hello.
    package static let handshakeTimeout = seconds("handshake-timeout", \.handshakeTimeout, zeroMeansNoLimit: true)
    /// `idle-timeout`: seconds after which an idle connection is closed.
    package static let idleTimeout = seconds("idle-timeout", \.idleTimeout, zeroMeansNoLimit: true)
    /// `session-timeout`: seconds a drag session may stay undropped.
    package static let sessionTimeout = seconds("session-timeout", \.sessionTimeout, zeroMeansNoLimit: false)
    /// `desktop-drags`: `yes` shows every drag session not restricted to its application on the desktop.
    package static let desktopDrags = flag("desktop-drags", \.desktopDrags)
    /// `capture-budget`: bytes of promised data taken over per pasteboard from an exiting source.
    package static let captureBudget = size("capture-budget", \.captureBudget, minimum: 0)
    /// `history-items`: the most earlier contents the general pasteboard's history keeps.
    package static let historyItems = count("history-items", \.historyItems, minimum: 0)
    /// `history-bytes`: the most bytes the general pasteboard's history keeps (a stored file shared by entries counts once).
    package static let historyBytes = size("history-bytes", \.historyBytes, minimum: 0)
    /// `history-transient-seconds`: how soon a copy must be replaced by what it replaced, or by
    /// nothing, to have been transient (a password manager's) and leave the history and the disk.
    package static let historyTransientSeconds = seconds("history-transient-seconds", \.historyTransientSeconds, zeroMeansNoLimit: true, noneMeans: "off")
    /// `max-frame-length`: the largest frame accepted (needs a restart).
    package static let maxFrameLength = size(
        "max-frame-length", \.maxFrameLength,
        minimum: ProtocolLimits.minimumMaxFrameLength, maximum: ProtocolLimits.defaultMaxFrameLength, needsRestart: true)
    /// `window`: the flow-control window per transfer (needs a restart).
    package static let window = size("window", \.window, minimum: ProtocolLimits.minimumWindow, needsRestart: true)
    /// `no-handoff`: `yes` offers no descriptor hand-off (needs a restart).
    package static let noHandoff = flag("no-handoff", \.handoff, inverted: true, needsRestart: true)
    /// `no-bridge`: `yes` starts no desktop bridge (needs a restart).
    package static let noBridge = flag("no-bridge", \.bridge, inverted: true, needsRestart: true)
    /// `bridge-remote-display`: `yes` lets the bridge serve a forwarded (TCP) X display (needs a restart).
    package static let bridgeRemoteDisplay = flag("bridge-remote-display", \.bridgeRemoteDisplay, needsRestart: true)
    /// `durable-primary`: `yes` keeps the `primary` pasteboard durably (needs a restart).
    package static let durablePrimary = flag("durable-primary", \.durablePrimary, needsRestart: true)

    /// `machine-name`: this machine's name to linked daemons (default: the host name).
    package static let machineName = text("machine-name", \.machineName, needsRestart: true) { text throws(InvalidValue) in
        guard (1...64).contains(text.utf8.count), text.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7f }) else {
            throw InvalidValue("must be 1 to 64 printable ASCII characters without spaces, not '\(text)'")
        }
    }

    /// `link`: the machines to keep linked, separated by spaces.
    package static let link = list("link", \.links, needsRestart: true) { word throws(InvalidValue) in
        if let problem = LinkDestination.problem(word) { throw InvalidValue(problem) }
    }

    /// `link-ssh`: the ssh command of links, with its options.
    package static let linkSSH = text("link-ssh", \.linkSSH, needsRestart: true) { text throws(InvalidValue) in
        guard !text.contains(where: { $0.isNewline }) else { throw InvalidValue("must be one line") }
    }

    /// `link-remote-pb`: the command that runs pb on the linked machines.
    package static let linkRemotePB = text("link-remote-pb", \.linkRemotePB, needsRestart: true) { text throws(InvalidValue) in
        guard !text.contains(where: { $0.isNewline }) else { throw InvalidValue("must be one line") }
    }

    /// `link-pasteboards`: the pasteboards links share, separated by spaces.
    package static let linkPasteboards = list("link-pasteboards", \.linkPasteboards, needsRestart: true) { name throws(InvalidValue) in
        if let failure = PasteboardName.validationFailure(name) { throw InvalidValue(failure) }
    }

    /// `link-sensitive`: links carry sensitive items too.
    package static let linkSensitive = flag("link-sensitive", \.linkSensitive, needsRestart: true)

    /// `link-capture`: the most bytes of text a link sends at once.
    package static let linkCapture = size("link-capture", \.linkCapture, minimum: 0, maximum: 64 << 20, needsRestart: true)
}

package import Logging
import PasteboardProtocol
import PasteboardSystem

/// Everything the daemon needs to know to run: where to listen and the limits it enforces.
///
/// The values come from the built-in defaults here, then the configuration file, then the
/// command line (see ``ConfigurationSources``); ``ConfigurationKey`` names the ones a file may set.
package struct DaemonConfiguration: Sendable, Equatable {
    /// The Unix socket path to listen on.
    package var socketPath: String
    /// The largest frame length accepted from clients (and announced in `welcome`).
    package var maxFrameLength: Int = ProtocolLimits.defaultMaxFrameLength
    /// The flow-control window per data stream, announced in `welcome`.
    package var window: Int = ProtocolLimits.defaultWindow
    /// The largest eager representation the daemon takes, in bytes, wherever it keeps it: a
    /// durable daemon keeps large ones on disk (`<state>/data`), so the default (256 GiB) is
    /// set by what a disk holds, above disk images and long videos, not by memory.
    package var maxRepresentationSize: Int = 256 << 30
    /// The largest eager representation the daemon keeps in memory rather than on disk, in
    /// bytes: every one of a sensitive item (secrets never touch the disk), and every one when
    /// the daemon runs memory-only. 256 MiB, the old memory-bound `maxRepresentationSize`.
    package var maxInMemorySize: Int = 256 << 20
    /// The most items one pasteboard may hold.
    package var maxItemsPerPasteboard: Int = 10_000
    /// The most connections served at once; one more is refused with `limit-reached`.
    package var maxConnections: Int = 4096
    /// The most loads (`read` requests) one connection may have in flight at once.
    package var maxLoadsPerConnection: Int = 16
    /// Seconds a new connection has to send its `hello`; nil for no limit.
    package var handshakeTimeout: Double? = 10
    /// Seconds a connection may stay idle (no frame received, no request in flight, no promise
    /// on any pasteboard) before the daemon closes it; nil for no limit.
    package var idleTimeout: Double? = 600
    /// Bytes of promised data the daemon captures per pasteboard from a source that relinquishes its promises.
    package var captureBudget: Int = 64 << 20
    /// Seconds a drag session may stay in flight (not dropped) before it is cancelled, unless
    /// the source asks for its own timeout; nil for no limit.
    package var sessionTimeout: Double?
    /// Whether every drag session that is not restricted to its application is shown on the
    /// desktop (as if its source asked, `drag.desktop`), for users who always want the handle.
    package var desktopDrags = false
    /// Where pasteboards are kept durably (`$XDG_STATE_HOME/pasteboard`); nil keeps them in memory only.
    package var stateDirectory: String?
    /// Whether to offer descriptor hand-off (`<socket>.handoff`): local loads from a live source
    /// then run through a socket pair between source and destination instead of through the daemon.
    package var handoff = true
    /// The most earlier contents the general pasteboard's history keeps (0 keeps no history).
    package var historyItems: Int = 100
    /// The most bytes of data the general pasteboard's history keeps, all entries together;
    /// the oldest entries leave first. A stored file that several entries share counts once,
    /// so 1 GiB, against the 64 MiB an in-memory history had, admits large copies into the
    /// history without doubling their disk; a memory-only daemon caps it at `maxInMemorySize`
    /// (see ``historyLimits``).
    package var historyBytes: Int = 1 << 30
    /// A copy of the general pasteboard replaced within this many seconds by what it replaced,
    /// or by nothing, was transient (a password manager copies a secret, then puts back what was
    /// there: `pass -c`, gopass, a timed clear): it leaves the history and the disk then (see
    /// `TransientCopy`); nil turns the rule off. A minute covers the defaults of the password
    /// managers that mark nothing secret (pass and gopass 45 s, KeePassXC's timed clear 10 s)
    /// and keeps short the span in which copying A, B, then A again drops B from the history.
    package var historyTransientSeconds: Double? = 60
    /// Whether the daemon starts the desktop bridge (`pasteboard-bridge`) when its environment
    /// names a display (`DISPLAY` or `WAYLAND_DISPLAY`).
    package var bridge = true
    /// Whether the bridge may serve a forwarded (TCP) X display, which dies with its session.
    package var bridgeRemoteDisplay = false
    /// Whether the `primary` pasteboard (the primary selection, which changes with every mouse
    /// selection) is kept durably like the others; by default it lives in memory only.
    package var durablePrimary = false
    /// This machine's name to linked daemons and in their history; nil: the host name.
    package var machineName: String?
    /// The machines the daemon keeps linked (`[USER@]HOST` or ssh aliases), each through its own
    /// `pb link` child, reconnecting with back-off (see pasteboardd(8), LINKS).
    package var links: [String] = []
    /// The ssh command links run (words split at spaces, as rsync's `-e`); nil: `PASTEBOARD_SSH`, else `ssh`.
    package var linkSSH: String?
    /// The command that runs pb on the linked machines (a shell command line there); nil: `pb`,
    /// which a non-interactive ssh session finds only on its short PATH.
    package var linkRemotePB: String?
    /// The pasteboards links share; `primary` and the named ones only when listed here.
    package var linkPasteboards: [String] = [PasteboardName.general]
    /// Whether links carry sensitive items (and marker types) too; by default secrets stay home.
    package var linkSensitive = false
    /// The most bytes of text a link sends with a change at once, so that it pastes on the other
    /// machine after the link dropped; larger text, and everything else, is fetched when pasted.
    package var linkCapture: Int = 1 << 20
    /// The lowest level of log message written.
    package var logLevel: Logger.Level = .info
    /// Where user type declarations live (`types.d`), if anywhere.
    package var userTypesDirectory: String?

    /// Creates a configuration listening on `socketPath` with default limits.
    package init(socketPath: String, userTypesDirectory: String? = nil) {
        self.socketPath = socketPath
        self.userTypesDirectory = userTypesDirectory
    }
}

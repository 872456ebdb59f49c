import Pasteboard
public import PasteboardDesktopTypes
import PasteboardSystem
import PasteboardTypes
import PasteboardWayland
import PasteboardX11

/// The desktop bridge: makes the `general` pasteboard the desktop's clipboard and `primary` its
/// primary selection, both ways, for as long as it runs.
///
/// It picks the display from the environment (`DisplayChoice`: Wayland through data-control
/// first, X11 where data-control is missing), connects to it and to the daemon, and runs one
/// importer and one exporter per selection over one daemon connection (`lanes(for:)`), sharing
/// per selection the record of its own writes (`BridgeEcho`) so the two directions never
/// ping-pong. When the display server or the daemon goes away it waits (`RetryDelay`) and
/// connects again, for as long as the task runs. What it does is kept in a
/// `BridgeStatusRecorder` for `pb bridge`.
public struct DesktopBridge: Sendable {
    /// What the bridge serves and how.
    public struct Configuration: Sendable {
        /// The environment giving `DISPLAY`, `XAUTHORITY`, `HOME`, `WAYLAND_DISPLAY` and
        /// `XDG_RUNTIME_DIR`.
        public var environment: [String: String]
        /// Whether a forwarded (TCP) X display may be bridged.
        public var allowRemoteDisplay = false
        /// Whether the primary selection is mirrored on the `primary` pasteboard.
        public var bridgesPrimary = true
        /// How long the primary selection must stay put before it is imported: it changes with
        /// every mouse selection, and only where the user stopped is worth a change.
        public var primaryDebounce: Duration = .milliseconds(300)
        /// The bounded wait for each answer of a desktop owner.
        public var ownerTimeout: Duration = .seconds(5)
        /// The most bytes of text captured at once when a desktop application copies.
        public var captureBudget = DesktopImportPlan.defaultCaptureBudget
        /// The waits between attempts to connect again.
        public var retry = RetryDelay()

        public init(environment: [String: String]) {
            self.environment = environment
        }

        /// The selections mirrored.
        public var selections: [DesktopSelection] { bridgesPrimary ? [.clipboard, .primary] : [.clipboard] }
    }

    /// The client name of the bridge's daemon connection.
    public static let clientName = "pasteboard-bridge"

    public var configuration: Configuration
    public var mapping: DesktopTypeMapping

    public init(configuration: Configuration, mapping: DesktopTypeMapping) {
        self.configuration = configuration
        self.mapping = mapping
    }

    /// Bridges until the task is cancelled. Returns at once, with the status `off`, when the
    /// environment names no display; otherwise never gives up: a display or daemon that is not
    /// there (yet, or any more) is waited for. `log` hears one line per thing worth logging,
    /// alike lines at most 5 in 10 s (`LogThrottle`), the rest summarised.
    public func run(socketPath: String, status: BridgeStatusRecorder, log write: @escaping @Sendable (String) -> Void) async {
        // A peer can make the lanes log as fast as it likes: alike lines are throttled.
        let throttle = LogThrottle(write: write)
        let log: @Sendable (String) -> Void = { throttle.log($0) }
        let choice = DisplayChoice(environment: configuration.environment, allowRemote: configuration.allowRemoteDisplay)
        for note in choice.notes { log(note) }
        guard !choice.isEmpty else {
            let reason = choice.notes.first ?? "no display: neither DISPLAY nor WAYLAND_DISPLAY is set"
            status.update { $0 = BridgeStatus(pid: $0.pid, state: .off, reason: reason) }
            return
        }
        var retry = configuration.retry
        var reported = Set<String>()
        func logOnce(_ line: String) { if reported.insert(line).inserted { log(line) } }
        while !Task.isCancelled {
            let started = ContinuousClock.now
            var reason: String
            do {
                let backend = try await connectable(choice, logOnce: logOnce)
                status.update { $0 = BridgeStatus(pid: $0.pid, state: .bridging, display: backend.display, displayProtocol: backend.protocolName) }
                log("bridging the \(backend)")
                reported.removeAll()
                try await PasteboardConnection.withConnection(socketPath: socketPath, clientName: Self.clientName, autoStart: false) { connection in
                    // The first lane to end, however, ends them all: the bridge then starts over.
                    try await LaneRun().run(
                        lanes(for: backend, status: status, log: log), on: connection,
                        onFirstEnd: { error in
                            let reason = error.map { "\($0)" } ?? "the connection ended"
                            status.update { $0 = BridgeStatus(pid: $0.pid, state: .waiting, reason: reason) }
                        },
                        onStraggler: { index in log("lane \(index) of the \(backend) did not end within 2 s of being cancelled; starting over without it") })
                }
                reason = "the connection ended"
            } catch is CancellationError {
                return
            } catch {
                reason = "\(error)"
            }
            if Task.isCancelled { return }
            let delay = retry.delay(afterLasting: .now - started)
            status.update { $0 = BridgeStatus(pid: $0.pid, state: .waiting, reason: reason) }
            logOnce("not bridging: \(reason); trying again (every \(retry.maximum) at most)")
            do { try await Task.sleep(for: delay) } catch { return }
        }
    }

    /// The first candidate that answers, probed in order. A compositor without data-control is
    /// reported once (GNOME before data-control, weston) and X11 through Xwayland used instead.
    func connectable(_ choice: DisplayChoice, logOnce: (String) -> Void) async throws -> DesktopBackend {
        var failures: [String] = []
        let timeout = configuration.ownerTimeout
        let environment = configuration.environment
        let allowRemote = configuration.allowRemoteDisplay
        for candidate in choice.candidates {
            switch candidate {
            case .wayland(let socketPath):
                do throws(WaylandError) {
                    let reader = try await SelectionReader.connect(socketPath: socketPath, timeout: timeout)
                    defer { reader.close() }
                    return DesktopBackend.wayland(socketPath: socketPath, dataControl: reader.dataControlProtocol, hasPrimary: reader.hasPrimarySelection)
                } catch .noDataControl {
                    logOnce("the compositor at \(socketPath) offers no data-control protocol (ext-data-control-v1 or zwlr-data-control-unstable-v1): its clipboard is bridged through X11 (Xwayland) where DISPLAY is set")
                    failures.append("\(candidate) offers no data-control protocol")
                } catch {
                    failures.append("\(candidate): \(error)")
                }
            case .x11(let name):
                do throws(X11Error) {
                    let display = X11Display(displayName: name.text, environment: environment, allowRemote: allowRemote)
                    try await display.probe()
                    return .x11(name)
                } catch {
                    failures.append("\(candidate): \(error)")
                }
            }
        }
        throw BridgeUnavailable(reasons: failures)
    }

    /// One long-running task of a backend, given the daemon connection.
    typealias Lane = @Sendable (PasteboardConnection) async throws -> Void

    /// The importers and exporters of `backend`, one of each per selection, sharing that
    /// selection's echo record (and on X11 the bridge's windows, and the clipboard manager's
    /// hand-over with the CLIPBOARD importer), and the lane that keeps their type mapping
    /// following the daemon's registry.
    func lanes(for backend: DesktopBackend, status: BridgeStatusRecorder, log: @escaping @Sendable (String) -> Void) -> [Lane] {
        let mappings = FollowedTypeMapping(mapping)
        let follower: Lane = { connection in try await mappings.follow(on: connection, log: log) }
        switch backend {
        case .x11(let name):
            return [follower] + x11Lanes(X11Display(
                displayName: name.text, environment: configuration.environment,
                allowRemote: configuration.allowRemoteDisplay, ownerTimeout: configuration.ownerTimeout), mappings: mappings, status: status, log: log)
        case .wayland(let socketPath, _, let hasPrimary):
            return [follower] + waylandLanes(
                WaylandDisplay(socketPath: socketPath, environment: configuration.environment, ownerTimeout: configuration.ownerTimeout),
                hasPrimary: hasPrimary, mappings: mappings, status: status, log: log)
        }
    }

    private func x11Lanes(_ display: X11Display, mappings: FollowedTypeMapping, status: BridgeStatusRecorder, log: @escaping @Sendable (String) -> Void) -> [Lane] {
        var lanes: [Lane] = []
        let ownWindows = DesktopOwnWindows()
        for selection in configuration.selections {
            let echo = BridgeEcho()
            let recent = RecentContent()
            let handover = ClipboardHandover()
            var importer = X11ClipboardImporter(display: display, selection: selection, mappings: mappings, ownWindows: ownWindows, echo: echo, recent: recent, handover: handover)
            importer.captureBudget = configuration.captureBudget
            importer.debounce = selection == .primary ? configuration.primaryDebounce : nil
            let exporter = X11ClipboardExporter(display: display, selection: selection, mappings: mappings, ownWindows: ownWindows, echo: echo)
            importer.vacancy = exporter.vacancy
            status.setOwner("none", of: selection, changeCount: nil)
            status.setSettled(false, of: selection)
            let report = BridgeReport(selection: selection, status: status, log: log)
            lanes.append { [importer] connection in try await importer.run(on: connection, onEvent: report.importer) }
            lanes.append { connection in try await exporter.run(on: connection, onEvent: report.exporter) }
            if selection == .clipboard {
                let manager = X11ClipboardManager(display: display, mappings: mappings, ownWindows: ownWindows, echo: echo, recent: recent, handover: handover)
                lanes.append { connection in try await manager.run(on: connection, onEvent: report.manager) }
            }
        }
        let drags = X11DesktopDrags(display: display, mappings: mappings, ownWindows: ownWindows)
        let dragReport = DesktopDragReport(log: log)
        lanes.append { connection in try await drags.run(on: connection, onEvent: dragReport.x11) }
        return lanes
    }

    private func waylandLanes(
        _ display: WaylandDisplay, hasPrimary: Bool, mappings: FollowedTypeMapping, status: BridgeStatusRecorder, log: @escaping @Sendable (String) -> Void
    ) -> [Lane] {
        var lanes: [Lane] = []
        for selection in configuration.selections {
            guard selection == .clipboard || hasPrimary else {
                log("the compositor reports no primary selection (zwlr-data-control version 1): only the clipboard is bridged")
                // Nothing of the desktop's will come: reads of `primary` need not wait for it.
                status.setSettled(true, of: selection)
                continue
            }
            let echo = BridgeEcho()
            var importer = WaylandClipboardImporter(
                display: display, selection: selection, mappings: mappings, echo: echo,
                debounce: selection == .primary ? configuration.primaryDebounce : nil)
            importer.captureBudget = configuration.captureBudget
            let exporter = WaylandClipboardExporter(display: display, selection: selection, mappings: mappings, echo: echo)
            importer.vacancy = exporter.vacancy
            status.setOwner("none", of: selection, changeCount: nil)
            status.setSettled(false, of: selection)
            let report = BridgeReport(selection: selection, status: status, log: log)
            lanes.append { [importer] connection in try await importer.run(on: connection, onEvent: report.waylandImporter) }
            lanes.append { connection in try await exporter.run(on: connection, onEvent: report.waylandExporter) }
        }
        let drags = WaylandDesktopDrags(display: display, mappings: mappings)
        let dragReport = DesktopDragReport(log: log)
        lanes.append { connection in try await drags.run(on: connection, onEvent: dragReport.wayland) }
        return lanes
    }
}

/// No display of the environment could be connected to, each for its reason.
struct BridgeUnavailable: Error, CustomStringConvertible {
    let reasons: [String]
    var description: String { reasons.joined(separator: "; ") }
}

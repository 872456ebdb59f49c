import PasteboardTypes

/// Turns the events of one selection's importer, exporter and clipboard manager into the
/// bridge's status (who owns the selection now) and its log lines.
struct BridgeReport: Sendable {
    let selection: DesktopSelection
    let status: BridgeStatusRecorder
    let log: @Sendable (String) -> Void

    private var name: String { selection.x11Name }

    private func imported(_ changeCount: Int, _ types: [TypeIdentifier]) {
        status.setOwner("desktop", of: selection, changeCount: changeCount)
        log("\(name): imported a copy as change \(changeCount) (\(types.map(\.rawValue).joined(separator: ", ")))")
    }

    var importer: @Sendable (X11ClipboardImporter.Event) -> Void {
        { event in
            switch event {
            case .imported(let changeCount, let types, _): imported(changeCount, types)
            case .skipped(let why): log("\(name): \(why)")
            case .settled: status.setSettled(true, of: selection)
            case .watching: break
            }
        }
    }

    var exporter: @Sendable (X11ClipboardExporter.Event) -> Void {
        { event in
            switch event {
            case .owning(let changeCount, _): status.setOwner("pasteboard", of: selection, changeCount: changeCount)
            case .released: status.setOwner("none", of: selection, changeCount: nil)
            case .lost: status.setOwner("desktop", of: selection, changeCount: nil)
            case .refused(let target, let reason): log("\(name): refused \(target): \(reason)")
            case .abandoned(let target, let reason): log("\(name): gave up serving \(target): \(reason)")
            case .watching, .served: break
            }
        }
    }

    var manager: @Sendable (X11ClipboardManager.Event) -> Void {
        { event in
            switch event {
            case .managing: log("serving CLIPBOARD_MANAGER: applications hand their clipboard over at exit")
            case .anotherManager(let who): log("another clipboard manager serves CLIPBOARD_MANAGER (\(who)): leaving the duty to it")
            case .saved(let changeCount, let types, let bytes, _):
                log("kept \(bytes) bytes an application handed over at exit (\(types.map(\.rawValue).joined(separator: ", "))) in change \(changeCount)")
            case .skipped(let why): log("clipboard manager: \(why)")
            case .refused(let why): log("clipboard manager: refused a hand-over: \(why)")
            }
        }
    }

    var waylandImporter: @Sendable (WaylandClipboardImporter.Event) -> Void {
        { event in
            switch event {
            case .imported(let changeCount, let types, _): imported(changeCount, types)
            case .skipped(let why): log("\(name): \(why)")
            case .settled: status.setSettled(true, of: selection)
            case .watching, .ownOffer: break
            }
        }
    }

    var waylandExporter: @Sendable (WaylandClipboardExporter.Event) -> Void {
        { event in
            switch event {
            case .owning(let changeCount, _): status.setOwner("pasteboard", of: selection, changeCount: changeCount)
            case .cleared: status.setOwner("none", of: selection, changeCount: nil)
            case .released: status.setOwner("desktop", of: selection, changeCount: nil)
            case .failed(let why): log("\(name): \(why)")
            case .watching, .ownChange, .served: break
            }
        }
    }
}

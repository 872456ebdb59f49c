import PasteboardWayland
import PasteboardX11

/// Turns the events of the desktop drag lane into the bridge's log lines: a handle shown, a
/// drag's outcome, a session not shown and why.
struct DesktopDragReport: Sendable {
    let log: @Sendable (String) -> Void

    var x11: @Sendable (X11DesktopDrags.Event) -> Void {
        { event in
            switch event {
            case let .handle(session, .shown(window)): log("drag session \(session): handle shown (\(window))")
            case let .handle(session, .ended(outcome, _)): log("drag session \(session): desktop drag \(outcome)")
            case let .skipped(session, reason): log("drag session \(session): not shown on the desktop: \(reason)")
            case let .failed(session?, reason): log("drag session \(session): its drag handle failed: \(reason)")
            case let .failed(nil, reason): log(reason)
            case let .zone(zone, .shown(window)): log("drop zone \(zone): shown (\(window))")
            case let .zone(zone, .dropped(drop)): log("drop zone \(zone): a desktop drop of \(drop.chosen) as \(drop.operation)")
            case let .zone(zone, .finished(performed)): log("drop zone \(zone): the drop \(performed.map { "finished (\($0))" } ?? "failed")")
            case .handle: break
            }
        }
    }

    var wayland: @Sendable (WaylandDesktopDrags.Event) -> Void {
        { event in
            switch event {
            case let .handle(session, .shown): log("drag session \(session): handle shown (Wayland)")
            case let .handle(session, .dragEnded(outcome, _)): log("drag session \(session): desktop drag \(outcome)")
            case let .skipped(session, reason): log("drag session \(session): not shown on the desktop: \(reason)")
            case let .failed(session?, reason): log("drag session \(session): its drag handle failed: \(reason)")
            case let .failed(nil, reason): log(reason)
            case let .zone(zone, .shown): log("drop zone \(zone): shown (Wayland)")
            case let .zone(zone, .dropped(drop)): log("drop zone \(zone): a desktop drop of \(drop.chosen) as \(drop.operation)")
            case let .zoneFinished(zone, performed): log("drop zone \(zone): the drop \(performed.map { "finished (\($0))" } ?? "failed")")
            case .handle, .zone: break
            }
        }
    }
}

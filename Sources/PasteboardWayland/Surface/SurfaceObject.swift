/// The interfaces a window of ours (a drag handle, a drop zone) creates objects of, with their
/// events' signatures: the wire does not say which types a message's arguments have, the
/// object it is addressed to does. Versions are bound low (`SurfaceSession`), so the events
/// listed are all a compositor may send.
enum SurfaceObject: Equatable, Sendable {
    case display, registry, callback
    case compositor, shm, shmPool, buffer, surface
    case wmBase, xdgSurface, toplevel
    case seat, pointer, keyboard
    case dataDeviceManager, dataDevice, dataSource, dataOffer

    var name: String {
        switch self {
        case .display: "wl_display"
        case .registry: "wl_registry"
        case .callback: "wl_callback"
        case .compositor: DragAndDropProtocol.Compositor.interface
        case .shm: DragAndDropProtocol.Shm.interface
        case .shmPool: "wl_shm_pool"
        case .buffer: "wl_buffer"
        case .surface: "wl_surface"
        case .wmBase: DragAndDropProtocol.WmBase.interface
        case .xdgSurface: "xdg_surface"
        case .toplevel: "xdg_toplevel"
        case .seat: CoreProtocol.Seat.interface
        case .pointer: "wl_pointer"
        case .keyboard: "wl_keyboard"
        case .dataDeviceManager: DragAndDropProtocol.DataDeviceManager.interface
        case .dataDevice: "wl_data_device"
        case .dataSource: "wl_data_source"
        case .dataOffer: "wl_data_offer"
        }
    }

    /// The argument types of event `opcode`; nil for an opcode the interface does not have.
    func eventSignature(_ opcode: UInt16) -> WireSignature? {
        let events: [WireSignature]
        switch self {
        case .display: events = [[.object, .uint, .string], [.uint]]
        case .registry: events = [[.uint, .string, .uint], [.uint]]
        case .callback: events = [[.uint]]
        case .compositor, .shmPool, .dataDeviceManager: events = []
        case .shm: events = [[.uint]]
        case .buffer: events = [[]]
        // enter, leave (an output); version 6's scale and transform hints are not bound.
        case .surface: events = [[.object], [.object]]
        case .wmBase: events = [[.uint]]
        case .xdgSurface: events = [[.uint]]
        case .toplevel: events = [[.int, .int, .array], []]
        case .seat: events = [[.uint], [.string]]
        // enter, leave, motion, button, axis, and version 5's frame and axis details.
        case .pointer: events = [[.uint, .object, .fixed, .fixed], [.uint, .object], [.uint, .fixed, .fixed], [.uint, .uint, .uint, .uint], [.uint, .uint, .fixed], [], [.uint], [.uint, .uint], [.uint, .int]]
        // keymap, enter, leave, key, modifiers, repeat_info.
        case .keyboard: events = [[.uint, .fd, .uint], [.uint, .object, .array], [.uint, .object], [.uint, .uint, .uint, .uint], [.uint, .uint, .uint, .uint, .uint], [.int, .int]]
        // data_offer, enter, leave, motion, drop, selection.
        case .dataDevice: events = [[.newID], [.uint, .object, .fixed, .fixed, .object], [], [.uint, .fixed, .fixed], [], [.object]]
        // target, send, cancelled, dnd_drop_performed, dnd_finished, action.
        case .dataSource: events = [[.string], [.string, .fd], [], [], [], [.uint]]
        // offer, source_actions, action.
        case .dataOffer: events = [[.string], [.uint], [.uint]]
        }
        return Int(opcode) < events.count ? events[Int(opcode)] : nil
    }
}

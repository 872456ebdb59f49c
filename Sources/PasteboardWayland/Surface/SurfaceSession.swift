#if canImport(Glibc)
import Glibc
#endif

/// One window of ours on a Wayland compositor, a drag handle or a drop zone, as a pure state
/// machine: decoded events in, requests and ``Event``s out. No socket and no threads, so every
/// path is tested with scripted compositor messages; `SurfaceClient` drives it on a connection.
///
/// Set-up: `get_registry` and a `sync`; when that sync is done every global is known, so it
/// binds `wl_compositor`, `wl_shm`, `xdg_wm_base`, the first `wl_seat` and
/// `wl_data_device_manager` (version 3: drag actions and `dnd_finished`), makes the surface an
/// xdg toplevel, and commits it without a buffer, as xdg-shell asks. The first `configure` is
/// acknowledged and answered with the picture (one `wl_shm` buffer, drawn once by the caller):
/// the window is shown.
///
/// A drag handle starts a drag on a left-button press over its surface (`start_drag` with the
/// press's serial, a `wl_data_source` offering its types and actions) and follows the source
/// with a ``WaylandDragSource``. A drop zone answers drags over it with a ``WaylandDropTarget``
/// and, on `drop`, holds the offer for the destination to read (``receive(_:into:)``) until it
/// answers (``finishDrop(performed:)``).
public struct SurfaceSession: Sendable {
    /// What the window is for.
    public enum Role: Sendable {
        /// A drag handle: a press starts a drag offering these MIME types, best first, with
        /// these actions.
        case dragHandle(types: [String], actions: DragActions)
        /// A drop zone answering drags with this target.
        case dropZone(WaylandDropTarget)
    }

    /// The window's look: its title, app id, and pixels (`width × height`, 32-bit
    /// little-endian B, G, R, A, which is `wl_shm`'s ARGB8888).
    public struct Picture: Sendable {
        public var title: String
        public var appID: String
        public var width: Int
        public var height: Int

        public init(title: String, appID: String, width: Int, height: Int) {
            self.title = title
            self.appID = appID
            self.width = width
            self.height = height
        }

        /// The bytes of its pixels.
        public var byteCount: Int { width * height * 4 }
    }

    /// A drop into a zone, held until ``finishDrop(performed:)``.
    public struct Drop: Sendable, Equatable {
        /// The MIME types the source offered, in its order.
        public var types: [String]
        /// The type accepted at enter.
        public var chosen: String
        /// The action the compositor settled on (copy or move).
        public var operation: DragOperationKind
    }

    /// What happened at the window, for its driver.
    public enum Event: Sendable, Equatable {
        /// The window has its picture on screen.
        case shown
        /// A press on the handle started a drag.
        case dragStarted
        /// A destination asks for `mimeType` of the drag: write it into `descriptor` (owned by
        /// the receiver of this event) and close it.
        case send(mimeType: String, descriptor: Int32)
        /// The user released over a destination that accepts (not yet acceptance), with the
        /// action the compositor settled on.
        case dropPerformed(DragOperationKind)
        /// The drag ended so (`byEscape`: the user pressed Esc).
        case dragEnded(WaylandDragOutcome, byEscape: Bool)
        /// Esc over the window while no drag was in flight.
        case escape
        /// Something was dropped on the zone; it is held until answered.
        case dropped(Drop)
        /// The compositor asked the window to close (`xdg_toplevel.close`).
        case closeRequested
    }

    public enum Phase: Sendable, Equatable {
        /// Waiting for the registry's globals.
        case discovering
        /// The toplevel is made; waiting for its first configure.
        case configuring
        /// The picture is on screen.
        case shown
        /// The window was closed (``close()``).
        case closed
    }

    public private(set) var phase: Phase = .discovering
    /// Requests to send, in order; the driver drains them.
    public var outgoing: [WireMessage] = []
    /// Events for the driver, in order; it drains them.
    public var events: [Event] = []

    public let role: Role
    public let picture: Picture
    /// The drag in flight from the handle, if any (ended drags stay until the next press).
    public private(set) var drag: WaylandDragSource?
    /// The drop target answering drags over the window: the zone's, or for a handle one that
    /// refuses (its own drag passes over it). An offer is let go of only at leave or drop: a
    /// drag offer destroyed while the drag is over the surface cancels the drag (wlroots).
    public private(set) var target: WaylandDropTarget

    /// The shared memory holding the pixels (the driver's; passed with `create_pool`).
    private let memory: Int32
    private var ids = ObjectIDAllocator()
    /// Live objects and destroyed ones whose `delete_id` has not come (events in flight may
    /// still address them, and must decode).
    private var objects: [UInt32: SurfaceObject] = [CoreProtocol.Display.id: .display]
    private var globals: [UInt32: (interface: String, version: UInt32)] = [:]
    private var registryID: UInt32 = 0
    private var setupCallback: UInt32 = 0
    private var compositorID: UInt32 = 0
    private var shmID: UInt32 = 0
    private var wmBaseID: UInt32 = 0
    private var seatID: UInt32 = 0
    private var managerID: UInt32 = 0
    private var surfaceID: UInt32 = 0
    private var xdgSurfaceID: UInt32 = 0
    private var toplevelID: UInt32 = 0
    private var bufferID: UInt32 = 0
    private var pointerID: UInt32 = 0
    private var keyboardID: UInt32 = 0
    private var deviceID: UInt32 = 0
    /// The drag's `wl_data_source`, while it lives.
    private var sourceID: UInt32 = 0
    /// Offers introduced by `data_offer` (drags over us, and the selection, which we let go
    /// of), with what they announced before `enter`.
    private var offers: [UInt32: (types: [String], actions: UInt32)] = [:]
    /// The offer of the drag over the window now (between enter and leave or drop).
    private var overUs: UInt32?
    /// The drop being held, and its offer.
    private var held: (offer: UInt32, drop: Drop)?
    private var pointerOverUs = false
    private var keyboardOnUs = false

    /// The most offers followed at once: a compositor announces an offer and then uses it, so
    /// a few at most wait; a peer announcing offers without end is broken.
    static let maximumOffers = 64
    /// The versions bound: the lowest with everything used, so no later event can arrive.
    static let compositorVersion: UInt32 = 4
    static let seatVersion: UInt32 = 3
    static let dataDeviceManagerVersion: UInt32 = 3

    /// Starts the set-up of a window for `role` showing `picture`, whose pixels are in the
    /// shared memory `memory` (at least `picture.byteCount` bytes): the first requests are in
    /// ``outgoing``.
    public init(role: Role, picture: Picture, memory: Int32) throws(WaylandError) {
        if case let .dragHandle(types, actions) = role {
            // What the compositor takes of a source (SourceLimits): longer types or more of them
            // would fail the encoder, or the compositor, at the press.
            var offered: [String] = []
            for type in types where !type.isEmpty && type.utf8.count <= SourceLimits.maxMIMETypeLength && !type.utf8.contains(0) && !offered.contains(type) {
                offered.append(type)
            }
            self.role = .dragHandle(types: Array(offered.prefix(SourceLimits.maxMIMETypes)), actions: actions)
        } else {
            self.role = role
        }
        self.picture = picture
        self.memory = memory
        if case let .dropZone(target) = self.role {
            self.target = target
        } else {
            target = WaylandDropTarget(takes: []) { _ in nil }
        }
        registryID = try newObject(.registry)
        outgoing.append(WireMessage(objectID: CoreProtocol.Display.id, opcode: CoreProtocol.Display.getRegistry, arguments: [.newID(registryID)]))
        setupCallback = try newObject(.callback)
        outgoing.append(WireMessage(objectID: CoreProtocol.Display.id, opcode: CoreProtocol.Display.sync, arguments: [.newID(setupCallback)]))
    }

    /// The signature of the event `header` names; throws for an object we never had or an
    /// opcode its interface does not have.
    public func signature(for header: WireHeader) throws(WaylandError) -> WireSignature {
        guard let object = objects[header.objectID], let signature = object.eventSignature(header.opcode) else {
            throw .unexpectedEvent(objectID: header.objectID, opcode: header.opcode)
        }
        return signature
    }

    /// Handles one event. Throws for `wl_display.error`, a missing global, and events that do
    /// not fit the protocol. Descriptors an event carries that nobody takes are closed here.
    public mutating func handle(_ event: WireMessage) throws(WaylandError) {
        guard let object = objects[event.objectID] else { throw .unexpectedEvent(objectID: event.objectID, opcode: event.opcode) }
        let arguments = event.arguments
        switch object {
        case .display:
            if event.opcode == CoreProtocol.Display.errorEvent, case .object(let id) = arguments[0],
               case .uint(let code) = arguments[1], case .string(let message) = arguments[2] {
                throw .protocolError(objectID: id, interface: objects[id]?.name ?? "unknown object", code: code, message: message ?? "")
            }
            if case .uint(let id) = arguments[0], id != CoreProtocol.Display.id, id < ObjectIDAllocator.firstServerID {
                objects[id] = nil
                ids.release(id)
            }
        case .registry:
            if event.opcode == CoreProtocol.Registry.globalEvent, case .uint(let name) = arguments[0],
               case .string(let interface?) = arguments[1], case .uint(let version) = arguments[2] {
                globals[name] = (interface, version)
            } else if case .uint(let name) = arguments[0] {
                globals[name] = nil
            }
        case .callback:
            if event.objectID == setupCallback, phase == .discovering { try bindAndCreate() }
        case .wmBase:
            if case .uint(let serial) = arguments[0] {
                outgoing.append(WireMessage(objectID: wmBaseID, opcode: DragAndDropProtocol.WmBase.pong, arguments: [.uint(serial)]))
            }
        case .xdgSurface:
            if case .uint(let serial) = arguments[0] { configured(serial) }
        case .toplevel:
            if event.opcode == DragAndDropProtocol.XdgToplevel.closeEvent { events.append(.closeRequested) }
        case .seat:
            if event.opcode == CoreProtocol.Seat.capabilitiesEvent, case .uint(let capabilities) = arguments[0] {
                try seatCapabilities(capabilities)
            }
        case .pointer:
            try pointerEvent(event)
        case .keyboard:
            keyboardEvent(event)
        case .dataDevice:
            try deviceEvent(event)
        case .dataOffer:
            offerEvent(event)
        case .dataSource:
            sourceEvent(event)
        case .compositor, .shm, .shmPool, .buffer, .surface, .dataDeviceManager:
            break
        }
    }

    // MARK: - Set-up

    private mutating func bindAndCreate() throws(WaylandError) {
        compositorID = try bind(.compositor, version: Self.compositorVersion)
        shmID = try bind(.shm, version: 1)
        wmBaseID = try bind(.wmBase, version: 1)
        seatID = try bind(.seat, version: Self.seatVersion, least: 1)
        managerID = try bind(.dataDeviceManager, version: Self.dataDeviceManagerVersion, least: Self.dataDeviceManagerVersion)
        surfaceID = try newObject(.surface)
        outgoing.append(WireMessage(objectID: compositorID, opcode: DragAndDropProtocol.Compositor.createSurface, arguments: [.newID(surfaceID)]))
        xdgSurfaceID = try newObject(.xdgSurface)
        outgoing.append(WireMessage(objectID: wmBaseID, opcode: DragAndDropProtocol.WmBase.getXdgSurface, arguments: [.newID(xdgSurfaceID), .object(surfaceID)]))
        toplevelID = try newObject(.toplevel)
        outgoing.append(WireMessage(objectID: xdgSurfaceID, opcode: DragAndDropProtocol.XdgSurface.getToplevel, arguments: [.newID(toplevelID)]))
        outgoing.append(WireMessage(objectID: toplevelID, opcode: DragAndDropProtocol.XdgToplevel.setTitle, arguments: [.string(picture.title)]))
        outgoing.append(WireMessage(objectID: toplevelID, opcode: DragAndDropProtocol.XdgToplevel.setAppID, arguments: [.string(picture.appID)]))
        outgoing.append(WireMessage(objectID: surfaceID, opcode: DragAndDropProtocol.Surface.commit))
        deviceID = try newObject(.dataDevice)
        outgoing.append(WireMessage(objectID: managerID, opcode: DragAndDropProtocol.DataDeviceManager.getDataDevice, arguments: [.newID(deviceID), .object(seatID)]))
        phase = .configuring
    }

    /// Binds the first global of `object`'s interface at `version` or the compositor's lower
    /// one, refusing one below `least`.
    private mutating func bind(_ object: SurfaceObject, version: UInt32, least: UInt32 = 1) throws(WaylandError) -> UInt32 {
        guard let global = globals.filter({ $0.value.interface == object.name }).min(by: { $0.key < $1.key }), global.value.version >= least else {
            throw .missingGlobal(interface: object.name, version: least)
        }
        let id = try newObject(object)
        outgoing.append(WireMessage(objectID: registryID, opcode: CoreProtocol.Registry.bind, arguments: [
            .uint(global.key), .untypedNewID(interface: object.name, version: min(version, global.value.version), id: id),
        ]))
        return id
    }

    /// A configure: acknowledged, and the first answered with the picture.
    private mutating func configured(_ serial: UInt32) {
        guard phase != .closed else { return }
        outgoing.append(WireMessage(objectID: xdgSurfaceID, opcode: DragAndDropProtocol.XdgSurface.ackConfigure, arguments: [.uint(serial)]))
        if bufferID == 0, let pool = try? newObject(.shmPool), let buffer = try? newObject(.buffer) {
            let size = Int32(clamping: picture.byteCount)
            outgoing.append(WireMessage(objectID: shmID, opcode: DragAndDropProtocol.Shm.createPool, arguments: [.newID(pool), .fd(memory), .int(size)]))
            outgoing.append(WireMessage(objectID: pool, opcode: DragAndDropProtocol.ShmPool.createBuffer, arguments: [
                .newID(buffer), .int(0), .int(Int32(clamping: picture.width)), .int(Int32(clamping: picture.height)),
                .int(Int32(clamping: picture.width * 4)), .uint(DragAndDropProtocol.Shm.argb8888),
            ]))
            // The buffer keeps the memory mapped; the pool is not needed again.
            outgoing.append(WireMessage(objectID: pool, opcode: DragAndDropProtocol.ShmPool.destroy))
            bufferID = buffer
            outgoing.append(WireMessage(objectID: surfaceID, opcode: DragAndDropProtocol.Surface.attach, arguments: [.object(buffer), .int(0), .int(0)]))
            outgoing.append(WireMessage(objectID: surfaceID, opcode: DragAndDropProtocol.Surface.damage, arguments: [
                .int(0), .int(0), .int(Int32(clamping: picture.width)), .int(Int32(clamping: picture.height)),
            ]))
            outgoing.append(WireMessage(objectID: surfaceID, opcode: DragAndDropProtocol.Surface.commit))
            phase = .shown
            events.append(.shown)
        } else {
            outgoing.append(WireMessage(objectID: surfaceID, opcode: DragAndDropProtocol.Surface.commit))
        }
    }

    private mutating func seatCapabilities(_ capabilities: UInt32) throws(WaylandError) {
        if capabilities & DragAndDropProtocol.Seat.pointerCapability != 0, pointerID == 0 {
            pointerID = try newObject(.pointer)
            outgoing.append(WireMessage(objectID: seatID, opcode: DragAndDropProtocol.Seat.getPointer, arguments: [.newID(pointerID)]))
        }
        if capabilities & DragAndDropProtocol.Seat.keyboardCapability != 0, keyboardID == 0 {
            keyboardID = try newObject(.keyboard)
            outgoing.append(WireMessage(objectID: seatID, opcode: DragAndDropProtocol.Seat.getKeyboard, arguments: [.newID(keyboardID)]))
        }
    }

    // MARK: - Input

    private mutating func pointerEvent(_ event: WireMessage) throws(WaylandError) {
        switch event.opcode {
        case DragAndDropProtocol.Pointer.enterEvent:
            if case .object(let surface) = event.arguments[1] { pointerOverUs = surface == surfaceID && surfaceID != 0 }
        case DragAndDropProtocol.Pointer.leaveEvent:
            pointerOverUs = false
        case DragAndDropProtocol.Pointer.buttonEvent:
            guard case .uint(let serial) = event.arguments[0], case .uint(let button) = event.arguments[2], case .uint(let state) = event.arguments[3],
                  button == DragAndDropProtocol.Pointer.leftButton, state == DragAndDropProtocol.Pointer.pressed, pointerOverUs else { return }
            try startDrag(serial: serial)
        default:
            break
        }
    }

    private mutating func keyboardEvent(_ event: WireMessage) {
        switch event.opcode {
        case 0:
            // keymap: the xkb keymap is not needed for Esc (evdev codes); its descriptor is closed.
            if case .fd(let descriptor) = event.arguments[1], descriptor >= 0 { Glibc.close(descriptor) }
        case 1:
            if case .object(let surface) = event.arguments[1] { keyboardOnUs = surface == surfaceID && surfaceID != 0 }
        case 2:
            keyboardOnUs = false
        case DragAndDropProtocol.Keyboard.keyEvent:
            guard keyboardOnUs, case .uint(let key) = event.arguments[2], case .uint(let state) = event.arguments[3],
                  key == DragAndDropProtocol.Keyboard.escape, state == 1 else { return }
            escape()
        default:
            break
        }
    }

    /// Esc: ends a drag in flight (its source destroyed: the compositor then ends the drag), or
    /// asks the driver to cancel what the window stands for.
    public mutating func escape() {
        // Once dropped, the destination is reading: Esc no longer calls anything off (as XDND's
        // source, which ignores it after XdndDrop).
        if let drag, case .dropped = drag.phase { return }
        guard var drag, case .dragging = drag.phase, sourceID != 0 else {
            events.append(.escape)
            return
        }
        drag.escape()
        self.drag = drag
        destroySource()
        events.append(.dragEnded(.cancelled, byEscape: true))
    }

    // MARK: - A drag from the handle

    private mutating func startDrag(serial: UInt32) throws(WaylandError) {
        guard case let .dragHandle(types, actions) = role, phase == .shown, deviceID != 0 else { return }
        if let drag, case .ended = drag.phase {} else if drag != nil { return }
        let source = try newObject(.dataSource)
        outgoing.append(WireMessage(objectID: managerID, opcode: DragAndDropProtocol.DataDeviceManager.createDataSource, arguments: [.newID(source)]))
        for type in types {
            outgoing.append(WireMessage(objectID: source, opcode: DragAndDropProtocol.DataSource.offer, arguments: [.string(type)]))
        }
        let drag = WaylandDragSource(offering: actions)
        outgoing.append(WireMessage(objectID: source, opcode: DragAndDropProtocol.DataSource.setActions, arguments: [.uint(drag.offered.rawValue)]))
        outgoing.append(WireMessage(objectID: deviceID, opcode: DragAndDropProtocol.DataDevice.startDrag, arguments: [
            .object(source), .object(surfaceID), .object(0), .uint(serial),
        ]))
        sourceID = source
        self.drag = drag
        events.append(.dragStarted)
    }

    private mutating func sourceEvent(_ event: WireMessage) {
        guard event.objectID == sourceID, var drag else {
            // A source we destroyed: a send in flight is answered by closing its pipe.
            if case .fd(let descriptor)? = event.arguments.last, descriptor >= 0 { Glibc.close(descriptor) }
            return
        }
        switch event.opcode {
        case DragAndDropProtocol.DataSource.targetEvent:
            if case .string(let type) = event.arguments[0] { drag.target(type) }
        case DragAndDropProtocol.DataSource.sendEvent:
            guard case .string(let type?) = event.arguments[0], case .fd(let descriptor) = event.arguments[1] else { return }
            if case let .dragHandle(types, _) = role, types.contains(type) {
                events.append(.send(mimeType: type, descriptor: descriptor))
            } else {
                Glibc.close(descriptor)
            }
        case DragAndDropProtocol.DataSource.cancelledEvent:
            drag.cancelled()
            destroySource()
        case DragAndDropProtocol.DataSource.dndDropPerformedEvent:
            drag.dropPerformed()
            events.append(.dropPerformed(drag.action.single ?? .copy))
        case DragAndDropProtocol.DataSource.dndFinishedEvent:
            drag.finished()
            destroySource()
        case DragAndDropProtocol.DataSource.actionEvent:
            if case .uint(let value) = event.arguments[0] { drag.chose(value) }
        default:
            break
        }
        self.drag = drag
        if let outcome = drag.outcome, sourceID == 0 { events.append(.dragEnded(outcome, byEscape: false)) }
    }

    private mutating func destroySource() {
        guard sourceID != 0 else { return }
        outgoing.append(WireMessage(objectID: sourceID, opcode: DragAndDropProtocol.DataSource.destroy))
        sourceID = 0
    }

    // MARK: - Drops into the zone (and drags passing over the handle, refused)

    private mutating func deviceEvent(_ event: WireMessage) throws(WaylandError) {
        switch event.opcode {
        case DragAndDropProtocol.DataDevice.dataOfferEvent:
            guard case .newID(let id) = event.arguments[0], id >= ObjectIDAllocator.firstServerID,
                  offers[id] != nil || offers.count < Self.maximumOffers else {
                throw .unexpectedEvent(objectID: event.objectID, opcode: event.opcode)
            }
            objects[id] = .dataOffer
            offers[id] = ([], 0)
        case DragAndDropProtocol.DataDevice.enterEvent:
            guard case .uint(let serial) = event.arguments[0], case .object(let surface) = event.arguments[1],
                  case .object(let id) = event.arguments[4], surface == surfaceID, let offer = offers[id] else { return }
            overUs = id
            guard held == nil else {
                // A drop is being delivered: another drag is refused until it is answered.
                send([.accept(serial: serial, type: nil), .setActions([], preferred: [])], on: id)
                return
            }
            target.dataOffer(id)
            for type in offer.types { target.offered(type, on: id) }
            target.sourceActions(offer.actions, on: id)
            send(target.enter(serial: serial, offer: id), on: id)
        case DragAndDropProtocol.DataDevice.leaveEvent:
            defer { overUs = nil }
            if let id = overUs, id != held?.offer { letGo(id) }
            guard let id = target.offer, id != held?.offer else { return }
            send(target.leave(), on: id)
        case DragAndDropProtocol.DataDevice.dropEvent:
            defer { overUs = nil }
            guard held == nil, let id = target.offer, id == overUs else {
                if let id = overUs, id != held?.offer { letGo(id) }
                return
            }
            let requests = target.drop()
            if let chosen = target.receiving {
                let drop = Drop(types: target.types, chosen: chosen, operation: target.action.single ?? .copy)
                held = (id, drop)
                events.append(.dropped(drop))
            } else {
                send(requests, on: id)
            }
        case DragAndDropProtocol.DataDevice.selectionEvent:
            // The clipboard is the bridge's other lanes' business: this window lets it go.
            if case .object(let id) = event.arguments[0], id != 0, offers[id] != nil { letGo(id) }
        default:
            break
        }
    }

    private mutating func offerEvent(_ event: WireMessage) {
        let id = event.objectID
        switch event.opcode {
        case DragAndDropProtocol.DataOffer.offerEvent:
            // Kept as the target keeps them: bounded in number and length, once each.
            guard case .string(let type?) = event.arguments[0], var offer = offers[id], offer.types.count < WaylandDropTarget.typeLimit,
                  !type.isEmpty, type.utf8.count <= WaylandDropTarget.typeLengthLimit, !offer.types.contains(type) else { return }
            offer.types.append(type)
            offers[id] = offer
            target.offered(type, on: id)
        case DragAndDropProtocol.DataOffer.sourceActionsEvent:
            guard case .uint(let value) = event.arguments[0] else { return }
            offers[id]?.actions = value
            target.sourceActions(value, on: id)
        case DragAndDropProtocol.DataOffer.actionEvent:
            guard case .uint(let value) = event.arguments[0] else { return }
            target.chose(value, on: id)
            if let (offer, drop) = held, offer == id, let action = target.action.single {
                held = (offer, Drop(types: drop.types, chosen: drop.chosen, operation: action))
            }
        default:
            break
        }
    }

    /// Sends the target's requests on offer `id`; a destroy lets the offer go.
    private mutating func send(_ requests: [WaylandDropTarget.Request], on id: UInt32) {
        for request in requests {
            switch request {
            case let .accept(serial, type):
                outgoing.append(WireMessage(objectID: id, opcode: DragAndDropProtocol.DataOffer.accept, arguments: [.uint(serial), .string(type)]))
            case let .setActions(actions, preferred):
                outgoing.append(WireMessage(objectID: id, opcode: DragAndDropProtocol.DataOffer.setActions, arguments: [.uint(actions.rawValue), .uint(preferred.rawValue)]))
            case .receive:
                // Receives need the driver's pipe: ``receive(_:into:)``.
                break
            case .finish:
                outgoing.append(WireMessage(objectID: id, opcode: DragAndDropProtocol.DataOffer.finish))
            case .destroy:
                letGo(id)
            }
        }
    }

    /// Destroys offer `id`. The compositor made its id and sends no `delete_id` for it; it stays
    /// in the table, so stray events still decode, until a new `data_offer` reuses the id.
    private mutating func letGo(_ id: UInt32) {
        guard offers.removeValue(forKey: id) != nil else { return }
        outgoing.append(WireMessage(objectID: id, opcode: DragAndDropProtocol.DataOffer.destroy))
    }

    /// The interface of object `id`, for traces.
    func objectName(_ id: UInt32) -> String { objects[id]?.name ?? "?" }

    /// The drop held, if any.
    public var heldDrop: Drop? { held?.drop }

    /// Asks the drop's source to write `mimeType` into `descriptor` (the write end of the
    /// driver's pipe, sent with the request). Throws when no drop is held or it lacks the type.
    public mutating func receive(_ mimeType: String, into descriptor: Int32) throws(WaylandError) {
        guard let (id, _) = held, case .receive? = target.receive(mimeType) else { throw .dropNotHeld(mimeType: mimeType) }
        outgoing.append(WireMessage(objectID: id, opcode: DragAndDropProtocol.DataOffer.receive, arguments: [.string(mimeType), .fd(descriptor)]))
    }

    /// Answers the held drop: finished with `performed` (a copy of a move tells the source so
    /// first), or failed (nil): the offer is let go of either way.
    public mutating func finishDrop(performed: DragOperationKind?) {
        guard let (id, _) = held else { return }
        held = nil
        let (requests, _) = target.received(success: performed != nil, performed: performed)
        send(requests, on: id)
    }

    // MARK: - Closing

    /// Takes the window down: a drag in flight is let go of (its source destroyed), a held
    /// drop failed, and the toplevel, its surface and buffer destroyed.
    public mutating func close() {
        guard phase != .closed else { return }
        if held != nil { finishDrop(performed: nil) }
        destroySource()
        if toplevelID != 0 { outgoing.append(WireMessage(objectID: toplevelID, opcode: 0)) }  // xdg_toplevel.destroy
        if xdgSurfaceID != 0 { outgoing.append(WireMessage(objectID: xdgSurfaceID, opcode: 0)) }  // xdg_surface.destroy
        if surfaceID != 0 { outgoing.append(WireMessage(objectID: surfaceID, opcode: DragAndDropProtocol.Surface.destroy)) }
        if bufferID != 0 { outgoing.append(WireMessage(objectID: bufferID, opcode: DragAndDropProtocol.Buffer.destroy)) }
        phase = .closed
    }

    private mutating func newObject(_ object: SurfaceObject) throws(WaylandError) -> UInt32 {
        guard let id = ids.allocate() else { throw .connectionLost(errno: EMFILE) }
        objects[id] = object
        return id
    }
}

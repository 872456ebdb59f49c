#if canImport(Glibc)
import Glibc
#endif

/// The client side of data control as a pure state machine: decoded events in, requests and
/// selection changes out. No socket and no threads, so every path (the ext protocol too, which
/// Debian's sway does not offer) is tested with scripted compositor messages.
///
/// Set-up: `get_registry` and a `sync`; when that sync is done all globals are known, so it
/// binds the first seat and the preferred data-control manager (ext, else wlr at version 2 for
/// the primary selection), gets the seat's device and syncs again; when the second sync is done
/// the device's initial `selection` / `primary_selection` events have arrived (the compositor
/// sends them on `get_data_device`), and the session is ready.
public struct DataControlSession: Sendable {
    public enum Phase: Equatable, Sendable {
        /// Waiting for the registry's globals.
        case discovering
        /// Bound; waiting for the device's initial selections.
        case binding
        /// The current selections are known and followed.
        case ready
        /// The compositor invalidated the device (`finished`).
        case finished
    }

    public private(set) var phase: Phase = .discovering
    /// The protocol in use, once bound.
    public private(set) var dataControl: DataControlProtocol?
    /// The manager version bound (wlr has the primary selection from 2).
    public private(set) var dataControlVersion: UInt32 = 0
    /// The seat's name (`wl_seat.name`, version 2), once the compositor sent it.
    public private(set) var seatName: String?
    /// The seat's capabilities bitmask (pointer 1, keyboard 2, touch 4).
    public private(set) var seatCapabilities: UInt32 = 0
    /// The current offer of each selection.
    public private(set) var selections: [SelectionKind: SelectionOffer] = [:]
    /// Requests to send, in order; the connection drains them.
    public var outgoing: [WireMessage] = []

    private var ids = ObjectIDAllocator()
    /// Live objects and destroyed ones not yet confirmed by `delete_id` (events in flight may
    /// still address them and must decode, fds included).
    private var objects: [UInt32: WaylandInterface] = [CoreProtocol.Display.id: .display]
    private var registryID: UInt32 = 0
    /// The sync whose `done` moves the set-up on.
    private var setupSync: UInt64 = 0
    private var globals: [UInt32: (interface: String, version: UInt32)] = [:]
    var deviceID: UInt32 = 0
    var managerID: UInt32 = 0
    /// Our live data sources (created, not yet cancelled or destroyed), by object id.
    var sources: [UInt32: SourceRecord] = [:]
    /// What the compositor asked of our sources, in order; the connection drains it.
    public var sourceEvents: [SourceEvent] = []
    /// Offers introduced by `data_offer`, with the MIME types announced so far.
    private var offerTypes: [UInt32: [String]] = [:]
    /// Offers that announced more types than `SelectionOffer.maximumMIMETypes`.
    private var overflowingOffers: Set<UInt32> = []
    /// The most offers followed at once: a compositor announces an offer and then makes it a
    /// selection, so a few at most wait; a peer announcing offers without end is broken.
    static let maximumPendingOffers = 64
    private var nextSerial: UInt64 = 1
    /// Pending syncs by callback id. Tokens count up, and the compositor answers syncs in the
    /// order sent, so one number says which are done (callback ids are reused, tokens are not).
    private var pendingSyncs: [UInt32: UInt64] = [:]
    private var nextSyncToken: UInt64 = 1
    private var completedSync: UInt64 = 0

    /// Starts the set-up: the first requests are in ``outgoing``.
    public init() throws(WaylandError) {
        registryID = try newObject(.registry)
        outgoing.append(WireMessage(objectID: CoreProtocol.Display.id, opcode: CoreProtocol.Display.getRegistry, arguments: [.newID(registryID)]))
        setupSync = try sync()
    }

    /// Whether the device sends the primary selection (ext always, wlr from version 2).
    public var hasPrimarySelection: Bool {
        dataControl?.hasPrimarySelection(version: dataControlVersion) ?? false
    }

    /// The interface of the object `header` addresses and its event's signature.
    public func signature(for header: WireHeader) throws(WaylandError) -> WireSignature {
        guard let interface = objects[header.objectID], let signature = interface.eventSignature(header.opcode) else {
            throw .unexpectedEvent(objectID: header.objectID, opcode: header.opcode)
        }
        return signature
    }

    /// Asks for a roundtrip (`wl_display.sync`): returns a token that ``isSynced(_:)`` reports
    /// done once the compositor has handled every request sent before it.
    public mutating func sync() throws(WaylandError) -> UInt64 {
        let callback = try newObject(.callback)
        outgoing.append(WireMessage(objectID: CoreProtocol.Display.id, opcode: CoreProtocol.Display.sync, arguments: [.newID(callback)]))
        defer { nextSyncToken += 1 }
        pendingSyncs[callback] = nextSyncToken
        return nextSyncToken
    }

    public func isSynced(_ token: UInt64) -> Bool { token <= completedSync }

    /// Handles one event; returns the selection changes it makes. Throws for `wl_display.error`
    /// and for events that do not fit the protocol.
    public mutating func handle(_ event: WireMessage) throws(WaylandError) -> [SelectionChange] {
        guard let interface = objects[event.objectID] else {
            throw .unexpectedEvent(objectID: event.objectID, opcode: event.opcode)
        }
        let arguments = event.arguments
        switch interface {
        case .display:
            if event.opcode == CoreProtocol.Display.errorEvent, case .object(let object) = arguments[0],
               case .uint(let code) = arguments[1], case .string(let message) = arguments[2] {
                throw .protocolError(objectID: object, interface: objects[object]?.name ?? "unknown object", code: code, message: message ?? "")
            }
            if event.opcode == CoreProtocol.Display.deleteIDEvent, case .uint(let id) = arguments[0] {
                objects[id] = nil
                ids.release(id)
            }
        case .registry:
            if event.opcode == CoreProtocol.Registry.globalEvent, case .uint(let name) = arguments[0],
               case .string(let name2?) = arguments[1], case .uint(let version) = arguments[2] {
                globals[name] = (name2, version)
            } else if case .uint(let name) = arguments[0] {
                globals[name] = nil
            }
        case .callback:
            // The compositor destroys the callback after `done`; its id is freed by `delete_id`.
            if let token = pendingSyncs.removeValue(forKey: event.objectID) {
                completedSync = max(completedSync, token)
                if token == setupSync { try advanceSetup() }
            }
        case .seat:
            if event.opcode == CoreProtocol.Seat.capabilitiesEvent, case .uint(let capabilities) = arguments[0] {
                seatCapabilities = capabilities
            } else if case .string(let name) = arguments[0] {
                seatName = name
            }
        case .dataControlDevice(let p):
            return try handleDevice(event, p)
        case .dataControlOffer:
            if case .string(let mimeType?) = arguments[0], let count = offerTypes[event.objectID]?.count,
               mimeType.utf8.count <= SelectionOffer.maximumMIMETypeLength {
                if count < SelectionOffer.maximumMIMETypes {
                    offerTypes[event.objectID]?.append(mimeType)
                } else {
                    overflowingOffers.insert(event.objectID)
                }
            }
        case .dataControlSource(let p):
            try handleSource(event, p)
        case .dataControlManager:
            break
        }
        return []
    }

    /// The `receive` request that has `offer`'s owner write `mimeType` into `descriptor`; refused
    /// when the offer is no longer current or does not have that type.
    public mutating func receive(_ mimeType: String, from offer: SelectionOffer, into descriptor: Int32) throws(WaylandError) {
        guard phase != .finished else { throw .deviceFinished }
        guard let dataControl, selections[offer.kind]?.serial == offer.serial else { throw .offerReplaced }
        guard offer.mimeTypes.contains(mimeType) else { throw .mimeTypeNotOffered(mimeType, offered: offer.mimeTypes) }
        outgoing.append(WireMessage(objectID: offer.objectID, opcode: dataControl.opcodes.receive, arguments: [.string(mimeType), .fd(descriptor)]))
    }

    // MARK: - Set-up

    private mutating func advanceSetup() throws(WaylandError) {
        switch phase {
        case .discovering:
            var chosen: (DataControlProtocol, UInt32, UInt32)?
            for p in DataControlProtocol.preferenceOrder where chosen == nil {
                if let global = globals.filter({ $0.value.interface == p.managerInterface }).min(by: { $0.key < $1.key }) {
                    chosen = (p, global.key, global.value.version)
                }
            }
            guard let (p, managerName, managerVersion) = chosen else { throw .noDataControl }
            guard let seat = globals.filter({ $0.value.interface == CoreProtocol.Seat.interface }).min(by: { $0.key < $1.key }) else {
                throw .noSeat
            }
            let seatID = try bind(seat.key, .seat, version: min(seat.value.version, CoreProtocol.Seat.maxVersion))
            let version = min(managerVersion, p.maxVersion)
            managerID = try bind(managerName, .dataControlManager(p), version: version)
            dataControl = p
            dataControlVersion = version
            deviceID = try newObject(.dataControlDevice(p))
            outgoing.append(WireMessage(objectID: managerID, opcode: p.opcodes.getDataDevice, arguments: [.newID(deviceID), .object(seatID)]))
            phase = .binding
            setupSync = try sync()
        case .binding:
            phase = .ready
        case .ready, .finished:
            break
        }
    }

    private mutating func bind(_ name: UInt32, _ interface: WaylandInterface, version: UInt32) throws(WaylandError) -> UInt32 {
        let id = try newObject(interface)
        outgoing.append(WireMessage(objectID: registryID, opcode: CoreProtocol.Registry.bind, arguments: [
            .uint(name), .untypedNewID(interface: interface.name, version: version, id: id),
        ]))
        return id
    }

    mutating func newObject(_ interface: WaylandInterface) throws(WaylandError) -> UInt32 {
        guard let id = ids.allocate() else { throw .connectionLost(errno: EMFILE) }  // out of client ids
        objects[id] = interface
        return id
    }

    // MARK: - Device

    private mutating func handleDevice(_ event: WireMessage, _ p: DataControlProtocol) throws(WaylandError) -> [SelectionChange] {
        let opcodes = p.opcodes
        switch event.opcode {
        case opcodes.dataOfferEvent:
            guard case .newID(let id) = event.arguments[0], id >= ObjectIDAllocator.firstServerID else {
                throw .unexpectedEvent(objectID: event.objectID, opcode: event.opcode)
            }
            guard offerTypes[id] != nil || offerTypes.count < Self.maximumPendingOffers else {
                throw .unexpectedEvent(objectID: event.objectID, opcode: event.opcode)
            }
            objects[id] = .dataControlOffer(p)
            offerTypes[id] = []
            overflowingOffers.remove(id)
            return []
        case opcodes.selectionEvent, opcodes.primarySelectionEvent:
            let kind: SelectionKind = event.opcode == opcodes.selectionEvent ? .clipboard : .primary
            guard case .object(let id) = event.arguments[0], id == 0 || offerTypes[id] != nil else {
                throw .unexpectedEvent(objectID: event.objectID, opcode: event.opcode)
            }
            if let previous = selections[kind] { destroyOffer(previous.objectID, p) }
            var offer: SelectionOffer?
            if id != 0 {
                offer = SelectionOffer(kind: kind, mimeTypes: offerTypes[id] ?? [], objectID: id, serial: nextSerial, isOverflowing: overflowingOffers.contains(id))
                nextSerial += 1
            }
            selections[kind] = offer
            return [SelectionChange(kind: kind, offer: offer)]
        case opcodes.finishedEvent:
            phase = .finished
            outgoing.append(WireMessage(objectID: deviceID, opcode: opcodes.deviceDestroy))
            var changes: [SelectionChange] = []
            for (kind, offer) in selections {
                destroyOffer(offer.objectID, p)
                changes.append(SelectionChange(kind: kind, offer: nil))
            }
            selections = [:]
            return changes
        default:
            throw .unexpectedEvent(objectID: event.objectID, opcode: event.opcode)
        }
    }

    /// Destroys an offer we no longer follow (the protocol asks for it on every replacement).
    /// The compositor allocated its id and sends no `delete_id` for it; it stays in the table,
    /// so stray events still decode, until a new `data_offer` reuses the id.
    private mutating func destroyOffer(_ id: UInt32, _ p: DataControlProtocol) {
        overflowingOffers.remove(id)
        guard offerTypes.removeValue(forKey: id) != nil else { return }
        outgoing.append(WireMessage(objectID: id, opcode: p.opcodes.offerDestroy))
    }
}

/// The interfaces this client creates objects of, with their events' signatures: the wire does
/// not say which types a message's arguments have, the object it is addressed to does.
public enum WaylandInterface: Equatable, Sendable {
    case display, registry, callback, seat
    case dataControlManager(DataControlProtocol)
    case dataControlDevice(DataControlProtocol)
    case dataControlOffer(DataControlProtocol)
    case dataControlSource(DataControlProtocol)

    public var name: String {
        switch self {
        case .display: "wl_display"
        case .registry: "wl_registry"
        case .callback: "wl_callback"
        case .seat: CoreProtocol.Seat.interface
        case .dataControlManager(let p): p.managerInterface
        case .dataControlDevice(let p): p.deviceInterface
        case .dataControlOffer(let p): p.offerInterface
        case .dataControlSource(let p): p.sourceInterface
        }
    }

    /// The argument types of event `opcode`; nil for an opcode the interface does not have.
    public func eventSignature(_ opcode: UInt16) -> WireSignature? {
        switch self {
        case .display:
            switch opcode {
            case CoreProtocol.Display.errorEvent: [.object, .uint, .string]
            case CoreProtocol.Display.deleteIDEvent: [.uint]
            default: nil
            }
        case .registry:
            switch opcode {
            case CoreProtocol.Registry.globalEvent: [.uint, .string, .uint]
            case CoreProtocol.Registry.globalRemoveEvent: [.uint]
            default: nil
            }
        case .callback:
            opcode == CoreProtocol.Callback.doneEvent ? [.uint] : nil
        case .seat:
            switch opcode {
            case CoreProtocol.Seat.capabilitiesEvent: [.uint]
            case CoreProtocol.Seat.nameEvent: [.string]
            default: nil
            }
        case .dataControlManager:
            nil
        case .dataControlDevice(let p):
            switch opcode {
            case p.opcodes.dataOfferEvent: [.newID]
            case p.opcodes.selectionEvent, p.opcodes.primarySelectionEvent: [.object]
            case p.opcodes.finishedEvent: []
            default: nil
            }
        case .dataControlOffer(let p):
            opcode == p.opcodes.offerEvent ? [.string] : nil
        case .dataControlSource(let p):
            switch opcode {
            case p.opcodes.sendEvent: [.string, .fd]
            case p.opcodes.cancelledEvent: []
            default: nil
            }
        }
    }
}

/// The state machine of a drop zone on Wayland: what the compositor's events on our
/// `wl_data_device` and the `wl_data_offer`s it introduces ask of us, as requests to send.
/// Pure: the bridge feeds it events and sends what it answers.
///
/// A drag entering our surface is announced by `data_offer` (a new offer object), its `offer`
/// events (the MIME types), `source_actions`, then `enter`. We `accept` the type our
/// negotiation picks (or null) with the enter's serial, and `set_actions`; on `drop` we
/// `receive` the chosen type into a pipe, and once the bytes are read, `finish` (version 3)
/// and `destroy`. `leave` without a drop forgets the offer.
public struct WaylandDropTarget: Sendable {
    /// A request for the bridge to send on the current offer.
    public enum Request: Sendable, Equatable {
        /// `wl_data_offer.accept(serial, type)`; nil type refuses.
        case accept(serial: UInt32, type: String?)
        /// `wl_data_offer.set_actions(actions, preferred)`.
        case setActions(DragActions, preferred: DragActions)
        /// `wl_data_offer.receive(type, fd)`: read the data from the pipe's other end.
        case receive(type: String)
        /// `wl_data_offer.finish`, once every byte was read (only after a drop of an accepted type).
        case finish
        /// `wl_data_offer.destroy`.
        case destroy
    }

    /// The most MIME types one offer may announce; more are ignored (a peer's list sizes nothing).
    public static let typeLimit = 1024
    /// The longest MIME type taken.
    public static let typeLengthLimit = 255

    /// Which actions this drop zone takes (copy, move or both).
    public let takes: DragActions
    /// Chooses, of the offered MIME types in the source's order, the one to take (nil: none).
    private let negotiate: @Sendable ([String]) -> String?

    /// The offer being announced or dragged over us: its object id, types and actions.
    public private(set) var offer: UInt32?
    public private(set) var types: [String] = []
    public private(set) var sourceActions: DragActions = []
    /// The type accepted at enter, and the action the compositor chose.
    public private(set) var accepted: String?
    public private(set) var action: DragActions = []
    /// Whether a drop is being received (its type).
    public private(set) var receiving: String?

    public init(takes: DragActions, negotiate: @escaping @Sendable ([String]) -> String?) {
        self.takes = takes.intersection([.copy, .move])
        self.negotiate = negotiate
    }

    /// `wl_data_device.data_offer`: a new offer; one being received is kept until it finishes.
    public mutating func dataOffer(_ id: UInt32) {
        guard receiving == nil else { return }
        offer = id
        types = []
        sourceActions = []
        accepted = nil
        action = []
    }

    /// `wl_data_offer.offer` on `id`: one MIME type.
    public mutating func offered(_ type: String, on id: UInt32) {
        guard id == offer, receiving == nil, types.count < Self.typeLimit, !type.isEmpty, type.utf8.count <= Self.typeLengthLimit,
              !types.contains(type) else { return }
        types.append(type)
    }

    /// `wl_data_offer.source_actions` on `id`.
    public mutating func sourceActions(_ value: UInt32, on id: UInt32) {
        guard id == offer, receiving == nil else { return }
        sourceActions = DragActions(wire: value)
    }

    /// `wl_data_offer.action` on `id`: the compositor's choice.
    public mutating func chose(_ value: UInt32, on id: UInt32) {
        guard id == offer else { return }
        action = DragActions(wire: value)
    }

    /// `wl_data_device.enter` with `serial` over our surface, for offer `id`: accept the
    /// negotiated type and say which actions we take, move preferred when both ends allow it.
    public mutating func enter(serial: UInt32, offer id: UInt32?) -> [Request] {
        guard let id, id == offer, receiving == nil else { return [] }
        let possible = takes.intersection(sourceActions.isEmpty ? .copy : sourceActions)
        accepted = possible.isEmpty ? nil : negotiate(types)
        guard let accepted else { return [.accept(serial: serial, type: nil), .setActions([], preferred: [])] }
        return [.accept(serial: serial, type: accepted), .setActions(possible, preferred: possible.contains(.move) ? .move : .copy)]
    }

    /// `wl_data_device.leave`: the drag left without a drop.
    public mutating func leave() -> [Request] {
        guard receiving == nil, offer != nil else { return [] }
        offer = nil
        types = []
        accepted = nil
        return [.destroy]
    }

    /// `wl_data_device.drop`: receive the accepted type (nothing to do when none was accepted).
    public mutating func drop() -> [Request] {
        guard receiving == nil, offer != nil else { return [] }
        guard let accepted else {
            offer = nil
            return [.destroy]
        }
        receiving = accepted
        return [.receive(type: accepted)]
    }

    /// Another `receive` of the drop being received: a destination may load more than the type
    /// accepted at enter (every type the source offered, as its negotiation picks), for as long
    /// as the drop is held. Nil when nothing is dropped or the type was not offered.
    public func receive(_ type: String) -> Request? {
        guard receiving != nil, types.contains(type) else { return nil }
        return .receive(type: type)
    }

    /// The drop was delivered (`success`: its bytes were read and taken) or it failed: finish
    /// and destroy, or only destroy. A destination that performed a copy of a drag the
    /// compositor settled as a move says so first (`set_actions` copy), so the source keeps its
    /// original. Returns the action performed when it succeeded.
    public mutating func received(success: Bool, performed: DragOperationKind? = nil) -> (requests: [Request], performed: DragOperationKind?) {
        guard receiving != nil else { return ([], nil) }
        receiving = nil
        offer = nil
        // finish is a protocol error without an action (wayland.xml): such a drop is only let go of.
        guard success, let settled = action.single else { return ([.destroy], nil) }
        if settled == .move, performed == .copy, sourceActions.isEmpty || sourceActions.contains(.copy) {
            action = .copy
            return ([.setActions(.copy, preferred: .copy), .finish, .destroy], .copy)
        }
        return ([.finish, .destroy], settled)
    }
}

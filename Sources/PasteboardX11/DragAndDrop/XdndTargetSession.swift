/// The side of an XDND drag that receives (our drop zone), without I/O: the caller feeds it the
/// XDND messages that arrived for its window and carries out the steps each call returns
/// (XDND spec, "Example walk-through", the target's part).
///
/// - XdndEnter starts a drag from its source with the types in the message, or, when it says
///   there are more than three, those of the source's XdndTypeList (at most `maximumTypeCount`).
///   One source at a time: while a drop is being fetched, other sources are ignored; before
///   that, an Enter from another source replaces the drag (the pointer grab is the server's,
///   so the old source's drag has ended even if its Leave never came).
/// - Every XdndPosition is answered with XdndStatus: accepted when `negotiate` chose one of the
///   offered types and an allowed operation fits the requested action (move when asked and
///   allowed, else copy when allowed: the spec lets a target accept the requested action or
///   copy), with every position wanted (no quiet rectangle).
/// - XdndLeave forgets the drag; XdndDrop asks the caller to fetch when the last Status
///   accepted, else answers XdndFinished without success at once.
/// - The fetch's end is answered with XdndFinished: success and the performed action in
///   version 5; before version 5 those fields are reserved and sent as zeros.
/// - Messages from a source other than the current one are ignored.
public struct XdndTargetSession: Sendable {
    /// The most types read from an XdndTypeList: a peer's property sizes nothing beyond it.
    public static let maximumTypeCount = 1024

    /// Our window, which has XdndAware and receives the source's messages.
    public let window: WindowID
    public let atoms: XdndAtoms
    /// The operations this drop zone performs.
    public let allowedOperations: Set<XdndOperation>
    /// Chooses the type to fetch among the offered ones (source's order, best first), nil when
    /// none is acceptable: the caller's conformance negotiation.
    private let negotiate: @Sendable ([Atom]) -> Atom?

    /// The drag being received, if any.
    public private(set) var drag: XdndIncomingDrag?

    public init(window: WindowID, atoms: XdndAtoms, allowedOperations: Set<XdndOperation>, negotiate: @escaping @Sendable ([Atom]) -> Atom?) {
        self.window = window
        self.atoms = atoms
        self.allowedOperations = allowedOperations
        self.negotiate = negotiate
    }

    /// An XDND message arrived for `window`.
    public mutating func received(_ message: XdndMessage) -> [XdndTargetStep] {
        switch message {
        case let .enter(enter): entered(enter)
        case let .position(position): moved(position)
        case let .leave(leave): left(leave)
        case let .drop(drop): dropped(drop)
        case .status, .finished: []
        }
    }

    /// The XdndTypeList of `source` as read (nil when the property is missing or not of type
    /// ATOM: the three types of the Enter are used then).
    public mutating func typeListRead(_ types: [Atom]?, from source: WindowID) -> [XdndTargetStep] {
        guard var drag, drag.source == source, drag.phase == .awaitingTypeList else { return [] }
        if let types {
            drag.types = Array(types.lazy.filter { $0 != .none }.prefix(Self.maximumTypeCount))
        }
        drag.phase = .dragging
        choose(for: &drag)
        // A Position answered while the list was unknown was refused: answer it again now.
        var steps: [XdndTargetStep] = []
        if let position = drag.lastPosition { steps.append(status(for: position, drag: &drag)) }
        self.drag = drag
        return steps
    }

    /// The fetch asked by `.fetch` ended: `performed` is the operation carried out, nil when it
    /// failed. Answers XdndFinished and ends the drag.
    public mutating func fetchEnded(performed: XdndOperation?) -> [XdndTargetStep] {
        guard let drag, drag.phase == .fetching else { return [] }
        self.drag = nil
        return [finished(drag, performed: performed)]
    }

    // MARK: - Messages

    private mutating func entered(_ enter: XdndEnter) -> [XdndTargetStep] {
        if let drag, drag.phase == .fetching { return [] }
        var drag = XdndIncomingDrag(source: enter.source, version: enter.version, types: enter.types)
        if enter.usesTypeList {
            drag.phase = .awaitingTypeList
            self.drag = drag
            return [.readTypeList(source: enter.source)]
        }
        choose(for: &drag)
        self.drag = drag
        return []
    }

    private mutating func moved(_ position: XdndPosition) -> [XdndTargetStep] {
        guard var drag, drag.source == position.source, drag.phase != .fetching else { return [] }
        drag.lastPosition = position
        let step = status(for: position, drag: &drag)
        self.drag = drag
        return [step]
    }

    private mutating func left(_ leave: XdndLeave) -> [XdndTargetStep] {
        guard let drag, drag.source == leave.source, drag.phase != .fetching else { return [] }
        self.drag = nil
        return []
    }

    private mutating func dropped(_ drop: XdndDrop) -> [XdndTargetStep] {
        guard var drag, drag.source == drop.source, drag.phase == .dragging else {
            // A drop while the type list is still unread was never accepted: refuse it.
            if let drag, drag.source == drop.source, drag.phase == .awaitingTypeList {
                self.drag = nil
                return [finished(drag, performed: nil)]
            }
            return []
        }
        guard let type = drag.chosenType, let operation = drag.operation else {
            self.drag = nil
            return [finished(drag, performed: nil)]
        }
        drag.phase = .fetching
        self.drag = drag
        return [.fetch(type: type, time: drop.time, operation: operation)]
    }

    // MARK: - Answers

    private func choose(for drag: inout XdndIncomingDrag) {
        let offered = drag.types
        drag.chosenType = negotiate(offered).flatMap { offered.contains($0) ? $0 : nil }
    }

    private func operation(for action: Atom) -> XdndOperation? {
        if atoms.operation(for: action) == .move, allowedOperations.contains(.move) { return .move }
        return allowedOperations.contains(.copy) ? .copy : nil
    }

    private func status(for position: XdndPosition, drag: inout XdndIncomingDrag) -> XdndTargetStep {
        let operation = drag.phase == .dragging && drag.chosenType != nil ? operation(for: position.action) : nil
        drag.operation = operation
        let status = XdndStatus(target: window, accepts: operation != nil, action: operation.map(atoms.action(for:)) ?? .none)
        return .send(XdndEnvelope(window: drag.source, message: .status(status)))
    }

    private func finished(_ drag: XdndIncomingDrag, performed: XdndOperation?) -> XdndTargetStep {
        let finished = XdndFinished(
            target: window, version: drag.version, succeeded: performed != nil, action: performed.map(atoms.action(for:)) ?? .none)
        return .send(XdndEnvelope(window: drag.source, message: .finished(finished)))
    }
}

/// The events this module handles, decoded from their 32 bytes (protocol spec, "Events"; the
/// XFIXES spec for XFixesSelectionNotify, whose code is the extension's first event).
public enum X11Event: Equatable, Sendable {
    case propertyNotify(PropertyNotify)
    case selectionClear(SelectionClear)
    case selectionRequest(SelectionRequest)
    case selectionNotify(SelectionNotify)
    case xfixesSelectionNotify(XFixesSelectionNotify)
    /// A window was destroyed: the selection owner selects StructureNotify on each requestor's
    /// window so a requestor that exits mid-INCR ends its transfer at once.
    case destroyNotify(DestroyNotify)
    /// A key went down or up (keycode in `detail`): Esc cancels a drag.
    case keyPress(InputEvent)
    case keyRelease(InputEvent)
    /// A pointer button went down or up (button in `detail`): a press on the handle lifts
    /// the drag, the release drops it.
    case buttonPress(InputEvent)
    case buttonRelease(InputEvent)
    /// The pointer moved (Normal or Hint in `detail`).
    case motionNotify(InputEvent)
    case enterNotify(CrossingEvent)
    case leaveNotify(CrossingEvent)
    case expose(Expose)
    case configureNotify(ConfigureNotify)
    case mapNotify(MapChange)
    case unmapNotify(MapChange)
    /// A ClientMessage of format 32 (XDND's messages, ICCCM's MANAGER), decoded by
    /// `ClientMessage(decoding:)`; one of another format stays `other`, since any client may
    /// send one and no convention we speak uses it.
    case clientMessage(ClientMessage)
    /// Any other event: its code (without the SendEvent bit) and bytes.
    case other(code: UInt8, bytes: [UInt8])

    public struct PropertyNotify: Equatable, Sendable {
        public let window: WindowID
        public let atom: Atom
        public let time: X11Timestamp
        /// True for NewValue, false for Deleted.
        public let isNewValue: Bool
    }

    public struct DestroyNotify: Equatable, Sendable {
        /// The window the event was selected on (the destroyed one, or its parent).
        public let event: WindowID
        public let window: WindowID
    }

    public struct SelectionClear: Equatable, Sendable {
        public let time: X11Timestamp
        public let owner: WindowID
        public let selection: Atom
    }

    public struct SelectionRequest: Equatable, Sendable {
        public let time: X11Timestamp
        public let owner: WindowID
        public let requestor: WindowID
        public let selection: Atom
        public let target: Atom
        /// None from obsolete clients (ICCCM: then use `target` as the property).
        public let property: Atom
    }

    public struct SelectionNotify: Equatable, Sendable {
        public let time: X11Timestamp
        public let requestor: WindowID
        public let selection: Atom
        public let target: Atom
        /// None when the owner refused (or there is no owner).
        public let property: Atom

        public init(time: X11Timestamp, requestor: WindowID, selection: Atom, target: Atom, property: Atom) {
            self.time = time
            self.requestor = requestor
            self.selection = selection
            self.target = target
            self.property = property
        }

        /// The 32 bytes of this event, for SendEvent when we answer a request as the owner.
        public var encoded: [UInt8] {
            var writer = WireWriter()
            writer.u8(31)
            writer.zeros(3)  // unused, sequence (the server fills it in)
            writer.u32(time)
            writer.u32(requestor.rawValue)
            writer.u32(selection.rawValue)
            writer.u32(target.rawValue)
            writer.u32(property.rawValue)
            writer.zeros(8)
            return writer.bytes
        }
    }

    /// What changed in an XFixesSelectionNotify.
    public enum OwnerChangeKind: UInt8, Sendable {
        case setSelectionOwner = 0, selectionWindowDestroy = 1, selectionClientClose = 2
    }

    public struct XFixesSelectionNotify: Equatable, Sendable {
        public let kind: OwnerChangeKind
        public let window: WindowID
        /// The new owner (none when the selection was lost by destruction or exit).
        public let owner: WindowID
        public let selection: Atom
        public let timestamp: X11Timestamp
        public let selectionTimestamp: X11Timestamp
    }

    /// Decodes one 32-byte event; `xfixesFirstEvent` is XFIXES's first event code if known.
    public static func decode(_ packet: ArraySlice<UInt8>, xfixesFirstEvent: UInt8? = nil) throws -> X11Event {
        guard packet.count == 32 else { throw X11Error.malformedFromServer("event of \(packet.count) bytes") }
        var reader = WireReader(packet, context: "event")
        let code = try reader.u8() & 0x7f
        let detail = try reader.u8()
        try reader.skip(2)  // sequence
        switch code {
        case 2:
            return .keyPress(try decodeInput(code: code, detail: detail, &reader))
        case 3:
            return .keyRelease(try decodeInput(code: code, detail: detail, &reader))
        case 4:
            return .buttonPress(try decodeInput(code: code, detail: detail, &reader))
        case 5:
            return .buttonRelease(try decodeInput(code: code, detail: detail, &reader))
        case 6:
            return .motionNotify(try decodeInput(code: code, detail: detail, &reader))
        case 7:
            return .enterNotify(try decodeCrossing(detail: detail, &reader))
        case 8:
            return .leaveNotify(try decodeCrossing(detail: detail, &reader))
        case 12:
            return .expose(try decodeExpose(&reader))
        case 18:
            return .unmapNotify(try decodeMapChange(&reader, "UnmapNotify's from-configure"))
        case 19:
            return .mapNotify(try decodeMapChange(&reader, "MapNotify's override-redirect"))
        case 22:
            return .configureNotify(try decodeConfigure(&reader))
        case 33 where detail == 32:
            return .clientMessage(try ClientMessage(decoding: packet))
        case 17:
            return .destroyNotify(DestroyNotify(event: WindowID(try reader.u32()), window: WindowID(try reader.u32())))
        case 28:
            let window = WindowID(try reader.u32()), atom = Atom(try reader.u32()), time = try reader.u32()
            return .propertyNotify(PropertyNotify(window: window, atom: atom, time: time, isNewValue: try reader.u8() == 0))
        case 29:
            return .selectionClear(SelectionClear(time: try reader.u32(), owner: WindowID(try reader.u32()), selection: Atom(try reader.u32())))
        case 30:
            return .selectionRequest(SelectionRequest(
                time: try reader.u32(), owner: WindowID(try reader.u32()), requestor: WindowID(try reader.u32()),
                selection: Atom(try reader.u32()), target: Atom(try reader.u32()), property: Atom(try reader.u32())))
        case 31:
            return .selectionNotify(SelectionNotify(
                time: try reader.u32(), requestor: WindowID(try reader.u32()), selection: Atom(try reader.u32()),
                target: Atom(try reader.u32()), property: Atom(try reader.u32())))
        case let code where xfixesFirstEvent != nil && code == xfixesFirstEvent:
            guard let kind = OwnerChangeKind(rawValue: detail) else {
                throw X11Error.malformedFromServer("XFixesSelectionNotify subtype \(detail)")
            }
            return .xfixesSelectionNotify(XFixesSelectionNotify(
                kind: kind, window: WindowID(try reader.u32()), owner: WindowID(try reader.u32()),
                selection: Atom(try reader.u32()), timestamp: try reader.u32(), selectionTimestamp: try reader.u32()))
        default:
            return .other(code: code, bytes: Array(packet))
        }
    }
}

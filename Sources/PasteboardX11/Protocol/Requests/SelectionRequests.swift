extension X11Request {
    /// SetSelectionOwner (22): `owner` (or none) owns `selection` from `time`.
    public static func setSelectionOwner(_ owner: WindowID, selection: Atom, time: X11Timestamp) -> X11Request {
        core("SetSelectionOwner", opcode: 22, expectsReply: false) { writer in
            writer.u32(owner.rawValue)
            writer.u32(selection.rawValue)
            writer.u32(time)
        }
    }

    /// GetSelectionOwner (23).
    public static func getSelectionOwner(_ selection: Atom) -> X11Request {
        core("GetSelectionOwner", opcode: 23, expectsReply: true) { $0.u32(selection.rawValue) }
    }

    /// ConvertSelection (24): asks the owner of `selection` to put it, as `target`, into
    /// `property` of `requestor` and tell us with a SelectionNotify.
    public static func convertSelection(requestor: WindowID, selection: Atom, target: Atom, property: Atom, time: X11Timestamp) -> X11Request {
        core("ConvertSelection", opcode: 24, expectsReply: false) { writer in
            writer.u32(requestor.rawValue)
            writer.u32(selection.rawValue)
            writer.u32(target.rawValue)
            writer.u32(property.rawValue)
            writer.u32(time)
        }
    }

    /// SendEvent (25) of a 32-byte event to `destination`: how an owner answers a
    /// SelectionRequest with a SelectionNotify (empty event mask: to the window's creator).
    public static func sendEvent(destination: WindowID, propagate: Bool = false, eventMask: UInt32 = 0, event: [UInt8]) throws(X11Error) -> X11Request {
        guard event.count == 32 else { throw .invalidArgument("SendEvent: an event is 32 bytes, not \(event.count)") }
        return core("SendEvent", opcode: 25, data: propagate ? 1 : 0, expectsReply: false) { writer in
            writer.u32(destination.rawValue)
            writer.u32(eventMask)
            writer.append(event)
        }
    }

    /// SendEvent of `message` to `destination` with an empty event mask, so it reaches the
    /// window's creator only: how each XDND message goes to the other side's window (XDND spec,
    /// "Sending messages"), and ICCCM §2.8's MANAGER (with StructureNotify, to the root).
    public static func sendEvent(_ message: ClientMessage, to destination: WindowID, eventMask: UInt32 = 0) -> X11Request {
        core("SendEvent", opcode: 25, expectsReply: false) { writer in
            writer.u32(destination.rawValue)
            writer.u32(eventMask)
            writer.append(message.encoded)
        }
    }
}

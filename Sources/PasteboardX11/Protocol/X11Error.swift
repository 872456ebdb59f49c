/// Everything that can go wrong talking to an X server, each with the detail a user needs to
/// act on it (which display, which file, which request).
public enum X11Error: Error, Equatable, Sendable, CustomStringConvertible {
    /// `DISPLAY` is unset, empty or not of a form we understand.
    case badDisplayName(String, reason: String)
    /// No socket could be connected for the display.
    case connectFailed(display: String, reason: String)
    /// The authority file exists but cannot be read or is not in the Xauthority format.
    case malformedAuthority(path: String, reason: String)
    /// The server refused the connection setup (usually: no or the wrong cookie).
    case setupFailed(reason: String)
    /// The server asked for further authentication, which we do not offer.
    case setupNeedsAuthentication(reason: String)
    /// The server sent bytes that break the protocol, or numbers out of range.
    case malformedFromServer(String)
    /// The server answered a request with an X error.
    case request(X11ProtocolError)
    /// The connection closed (the server went away) or a read or write failed.
    case connectionClosed(String)
    /// Nothing came within the bounded wait: `what` names what we waited for.
    case timedOut(what: String, seconds: Double)
    /// The operation was cancelled by its caller.
    case cancelled
    /// The selection has no owner, so there is nothing to read.
    case noOwner(selection: String)
    /// The owner refused the conversion (SelectionNotify with property None).
    case conversionRefused(selection: String, target: String)
    /// The owner gave up ownership or went away in the middle of a transfer.
    case ownerGone(selection: String)
    /// SetSelectionOwner did not make us the owner (GetSelectionOwner names `owner`): another
    /// client took the selection with a later time.
    case ownershipNotTaken(selection: String, owner: WindowID)
    /// An extension the operation needs (XFIXES) is missing.
    case extensionMissing(String)
    /// A caller-supplied value cannot be sent (e.g. a request over the server's maximum length).
    case invalidArgument(String)

    public var description: String {
        switch self {
        case let .badDisplayName(name, reason): "bad display name \"\(name)\": \(reason)"
        case let .connectFailed(display, reason): "cannot connect to X display \(display): \(reason)"
        case let .malformedAuthority(path, reason): "malformed Xauthority file \(path): \(reason)"
        case let .setupFailed(reason): "the X server refused the connection: \(reason)"
        case let .setupNeedsAuthentication(reason): "the X server asks for further authentication: \(reason)"
        case let .malformedFromServer(detail): "malformed data from the X server: \(detail)"
        case let .request(error): error.description
        case let .connectionClosed(detail): "X connection closed: \(detail)"
        case let .timedOut(what, seconds): "no answer within \(seconds) s while waiting for \(what)"
        case .cancelled: "cancelled"
        case let .noOwner(selection): "selection \(selection) has no owner"
        case let .conversionRefused(selection, target): "the owner of \(selection) refused to convert it to \(target)"
        case let .ownerGone(selection): "the owner of \(selection) went away during the transfer"
        case let .ownershipNotTaken(selection, owner): "could not take the selection \(selection): its owner is \(owner), not our window"
        case let .extensionMissing(name): "the X server lacks the \(name) extension"
        case let .invalidArgument(detail): detail
        }
    }
}

/// An X error the server sent for one of our requests, named by that request.
public struct X11ProtocolError: Error, Equatable, Sendable, CustomStringConvertible {
    public let code: UInt8
    public let sequence: UInt16
    /// The bad resource id, atom or value, depending on `code`.
    public let badValue: UInt32
    public let majorOpcode: UInt8
    public let minorOpcode: UInt16
    /// The request's name as we sent it (e.g. "ConvertSelection"), or its opcode if unknown.
    public var requestName: String

    public var codeName: String {
        let names = [1: "BadRequest", 2: "BadValue", 3: "BadWindow", 4: "BadPixmap", 5: "BadAtom", 6: "BadCursor",
                     7: "BadFont", 8: "BadMatch", 9: "BadDrawable", 10: "BadAccess", 11: "BadAlloc", 12: "BadColormap",
                     13: "BadGContext", 14: "BadIDChoice", 15: "BadName", 16: "BadLength", 17: "BadImplementation"]
        return names[Int(code)] ?? "error \(code)"
    }

    public var description: String {
        "X error \(codeName) for request \(requestName) (bad value \(badValue), opcode \(majorOpcode).\(minorOpcode), sequence \(sequence))"
    }

    /// Decodes a 32-byte error packet (first byte 0).
    public static func decode(_ packet: ArraySlice<UInt8>) throws -> X11ProtocolError {
        var reader = WireReader(packet, context: "error")
        guard try reader.u8() == 0 else { throw X11Error.malformedFromServer("error: first byte is not 0") }
        let code = try reader.u8()
        let sequence = try reader.u16()
        let badValue = try reader.u32()
        let minor = try reader.u16()
        let major = try reader.u8()
        return X11ProtocolError(code: code, sequence: sequence, badValue: badValue, majorOpcode: major, minorOpcode: minor, requestName: "opcode \(major)")
    }
}

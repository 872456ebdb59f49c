/// XdndFinished, target to source, once the target is done with a drop (XDND spec,
/// "XdndFinished"): data.l[0] is the target window. Version 5 adds data.l[1] bit 0, set when
/// the target accepted the drop and performed the action, and data.l[2], the action performed
/// (None when it failed). Before version 5 both are reserved and zero, so such a Finished says
/// only that the target is done (see `XdndSourceSession` for what we make of it).
public struct XdndFinished: Hashable, Sendable {
    public let target: WindowID
    /// Bit 0 of data.l[1]: meaningful from version 5 on.
    public let succeeded: Bool
    /// The performed action (version 5): an atom from a peer, any value; None on failure.
    public let action: Atom

    public init(target: WindowID, succeeded: Bool, action: Atom) {
        self.target = target
        self.succeeded = succeeded
        self.action = succeeded ? action : .none
    }

    /// The Finished a target of `version` sends: before version 5 the outcome fields are
    /// reserved, so they are sent as zeros whatever happened.
    public init(target: WindowID, version: XdndVersion, succeeded: Bool, action: Atom) {
        if version.reportsFinishedOutcome {
            self.init(target: target, succeeded: succeeded, action: action)
        } else {
            self.init(target: target, succeeded: false, action: .none)
        }
    }

    init(items: [UInt32]) throws(XdndError) {
        let window = try XdndMessage.peerWindow(items, of: "XdndFinished")
        self.init(target: window, succeeded: items[1] & 1 != 0, action: Atom(items[2]))
    }

    var items: [UInt32] { [target.rawValue, succeeded ? 1 : 0, action.rawValue, 0, 0] }
}

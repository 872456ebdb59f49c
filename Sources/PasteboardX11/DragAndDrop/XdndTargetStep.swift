/// What the receiving side asks its caller to do, in order.
public enum XdndTargetStep: Hashable, Sendable {
    /// Send this message (XdndStatus or XdndFinished, to the source).
    case send(XdndEnvelope)
    /// Read the source window's XdndTypeList (type ATOM, at most
    /// `XdndTargetSession.maximumTypeCount` items) and pass it to `typeListRead(_:from:)`.
    case readTypeList(source: WindowID)
    /// Convert XdndSelection to `type` at `time` (the drop's timestamp), deliver the data as
    /// `operation`, then call `fetchEnded(performed:)`.
    case fetch(type: Atom, time: X11Timestamp, operation: XdndOperation)
}

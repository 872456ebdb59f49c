extension X11Connection {
    /// A real server time, for taking a selection (ICCCM §2.1: never CurrentTime): a
    /// zero-length append to `property` of `window` makes the server stamp a PropertyNotify,
    /// whose time this returns. Waits at most `timeout`; `what` names the wait in its error.
    public func serverTime(window: WindowID, property: Atom, timeout: Duration, what: String) throws(X11Error) -> X11Timestamp {
        let isStamp: (X11Event) -> Bool = { event in
            if case let .propertyNotify(notify) = event { return notify.window == window && notify.atom == property }
            return false
        }
        discardEvents(where: isStamp)
        try send(.changeProperty(.append, window: window, property: property, type: .integer, format: 32, data: []))
        let event = try nextEvent(deadline: X11Deadline(after: timeout), what: what, where: isStamp)
        guard case let .propertyNotify(stamp) = event else { throw .malformedFromServer("not a PropertyNotify") }
        return stamp.time
    }
}

extension X11Connection {
    /// Sends `request` to a requestor's window, ignoring X errors: the window may be gone at any
    /// moment (an application at exit), which must end only that transfer (the BadWindow
    /// reaches `ignoredErrorHandler`). Every selection owner (the pasteboard's, the clipboard
    /// manager's) writes to requestors this way.
    public func sendToRequestor(_ request: X11Request) throws(X11Error) {
        try send(request, ignoringErrors: true)
    }

    /// Answers `request` with the SelectionNotify that names `property` (`.none`: refused).
    public func notify(_ request: X11Event.SelectionRequest, property: Atom) throws(X11Error) {
        let event = X11Event.SelectionNotify(
            time: request.time, requestor: request.requestor, selection: request.selection, target: request.target, property: property)
        try sendToRequestor(.sendEvent(destination: request.requestor, event: event.encoded))
    }
}

internal import PasteboardProtocol
import PasteboardTypes

extension BlockingConnection {
    /// One type declaration the daemon holds, and where it came from.
    package typealias DaemonTypeDeclaration = TypeListReading.Declaration

    /// Every type declaration the daemon holds, in its order (built-in, the user's `types.d` as
    /// the daemon last read it, then the apps' declarations), read with `types` as many answers
    /// as it takes (`TypeListReading`).
    ///
    /// Adding the declarations to a registry in this order gives the daemon's view (see
    /// pasteboard-protocol(7), TYPE DECLARATIONS). Throws `PasteboardError.daemon` with code
    /// `unknown-message` from a daemon that predates `types`, and `PasteboardError.io` when the
    /// declarations kept changing while they were read, or the daemon listed more than
    /// `TypeListReading.maximumDeclarations`.
    package func typeDeclarations() throws -> [DaemonTypeDeclaration] {
        var reading = TypeListReading()
        while true {
            if let whole = try reading.take(try answer(to: reading.nextRequest)) { return whole.declarations }
        }
    }

    /// The one answer to `message`, on a request of its own.
    private func answer(to message: Message) throws -> Message {
        let id = openRequest()
        queue(.message(message, requestID: id))
        try flush()
        while true {
            let frame = try nextFrame(for: id, interrupt: nil)
            guard frame.kind == .message else { continue }
            do { return try frame.decodeMessage() } catch { throw PasteboardError.daemon(error) }
        }
    }
}

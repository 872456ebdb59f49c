import PasteboardProtocol
import Synchronization

/// A `ReceiveWindow` that more than one task consumes from: a write's frames arrive in the
/// connection's inbound loop, while the bytes it stores are consumed when a spool has written
/// them to disk.
final class SharedReceiveWindow: Sendable {
    private let window: Mutex<ReceiveWindow>

    init(window: Int) {
        self.window = Mutex(ReceiveWindow(window: window))
    }

    /// See `ReceiveWindow.receive`.
    func receive(_ bytes: Int) throws(ProtocolError) {
        try window.withLock { window throws(ProtocolError) in try window.receive(bytes) }
    }

    /// See `ReceiveWindow.consume`.
    func consume(_ bytes: Int) -> Int? {
        window.withLock { $0.consume(bytes) }
    }
}

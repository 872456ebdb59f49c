/// Opcodes of the core protocol (wayland.xml) this client uses: requests and events are
/// numbered separately per interface, in the XML's order.
enum CoreProtocol {
    enum Display {
        static let id: UInt32 = 1
        static let sync: UInt16 = 0
        static let getRegistry: UInt16 = 1
        static let errorEvent: UInt16 = 0
        static let deleteIDEvent: UInt16 = 1
    }

    enum Registry {
        static let bind: UInt16 = 0
        static let globalEvent: UInt16 = 0
        static let globalRemoveEvent: UInt16 = 1
    }

    enum Callback {
        static let doneEvent: UInt16 = 0
    }

    enum Seat {
        static let interface = "wl_seat"
        /// Version 2 adds the `name` event; nothing later is needed to get a data device.
        static let maxVersion: UInt32 = 2
        static let release: UInt16 = 3
        static let capabilitiesEvent: UInt16 = 0
        static let nameEvent: UInt16 = 1
    }
}

/// Opcodes of what a drag handle and a drop zone need on Wayland (wayland.xml's data device,
/// shm, surface, seat input; xdg-shell's toplevel): requests and events are numbered
/// separately per interface, in the XML's order.
enum DragAndDropProtocol {
    enum Compositor {
        static let interface = "wl_compositor"
        static let maxVersion: UInt32 = 4
        static let createSurface: UInt16 = 0
    }

    enum Shm {
        static let interface = "wl_shm"
        static let maxVersion: UInt32 = 1
        static let createPool: UInt16 = 0
        static let formatEvent: UInt16 = 0
        /// `wl_shm.format.argb8888`: 32-bit, little-endian B, G, R, A (what `Canvas` writes).
        static let argb8888: UInt32 = 0
    }

    enum ShmPool {
        static let createBuffer: UInt16 = 0
        static let destroy: UInt16 = 1
    }

    enum Buffer {
        static let destroy: UInt16 = 0
        static let releaseEvent: UInt16 = 0
    }

    enum Surface {
        static let destroy: UInt16 = 0
        static let attach: UInt16 = 1
        static let damage: UInt16 = 2
        static let commit: UInt16 = 6
    }

    enum Seat {
        static let getPointer: UInt16 = 0
        static let getKeyboard: UInt16 = 1
        /// `wl_seat.capability`.
        static let pointerCapability: UInt32 = 1
        static let keyboardCapability: UInt32 = 2
    }

    enum Pointer {
        static let release: UInt16 = 1
        static let enterEvent: UInt16 = 0
        static let leaveEvent: UInt16 = 1
        static let motionEvent: UInt16 = 2
        static let buttonEvent: UInt16 = 3
        /// `wl_pointer.button_state`.
        static let pressed: UInt32 = 1
        /// Linux's BTN_LEFT (input-event-codes.h), the button a drag starts with.
        static let leftButton: UInt32 = 0x110
    }

    enum Keyboard {
        static let keyEvent: UInt16 = 3
        /// Linux's KEY_ESC: evdev codes, which `wl_keyboard.key` carries (the xkb keymap is not
        /// needed for one key).
        static let escape: UInt32 = 1
    }

    enum DataDeviceManager {
        static let interface = "wl_data_device_manager"
        /// Version 3 has drag-and-drop actions and `dnd_finished`.
        static let maxVersion: UInt32 = 3
        static let createDataSource: UInt16 = 0
        static let getDataDevice: UInt16 = 1
    }

    enum DataSource {
        static let offer: UInt16 = 0
        static let destroy: UInt16 = 1
        static let setActions: UInt16 = 2
        static let targetEvent: UInt16 = 0
        static let sendEvent: UInt16 = 1
        static let cancelledEvent: UInt16 = 2
        static let dndDropPerformedEvent: UInt16 = 3
        static let dndFinishedEvent: UInt16 = 4
        static let actionEvent: UInt16 = 5
    }

    enum DataDevice {
        static let startDrag: UInt16 = 0
        static let release: UInt16 = 2
        static let dataOfferEvent: UInt16 = 0
        static let enterEvent: UInt16 = 1
        static let leaveEvent: UInt16 = 2
        static let motionEvent: UInt16 = 3
        static let dropEvent: UInt16 = 4
        static let selectionEvent: UInt16 = 5
    }

    enum DataOffer {
        static let accept: UInt16 = 0
        static let receive: UInt16 = 1
        static let destroy: UInt16 = 2
        static let finish: UInt16 = 3
        static let setActions: UInt16 = 4
        static let offerEvent: UInt16 = 0
        static let sourceActionsEvent: UInt16 = 1
        static let actionEvent: UInt16 = 2
    }

    enum WmBase {
        static let interface = "xdg_wm_base"
        static let maxVersion: UInt32 = 1
        static let getXdgSurface: UInt16 = 2
        static let pong: UInt16 = 3
        static let pingEvent: UInt16 = 0
    }

    enum XdgSurface {
        static let getToplevel: UInt16 = 1
        static let ackConfigure: UInt16 = 4
        static let configureEvent: UInt16 = 0
    }

    enum XdgToplevel {
        static let setTitle: UInt16 = 2
        static let setAppID: UInt16 = 3
        static let configureEvent: UInt16 = 0
        static let closeEvent: UInt16 = 1
    }
}

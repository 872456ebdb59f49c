extension X11Connection {
    /// A connection over `descriptor`, a stream socket already connected to a server whose setup
    /// is `setup`: no display name is looked up, no Xauthority read and no setup exchanged.
    /// The connection owns the descriptor from now on (closing it with itself).
    ///
    /// For the package's scripted X servers (`pasteboard-fuzz x11-session`, which plays an X
    /// server and its other clients as its input says): the state machines on top of the
    /// connection are driven exactly as a real server drives them.
    package static func attached(descriptor: Int32, setup: SetupInfo) -> X11Connection {
        // The name is only shown in messages; a socket pair has no display.
        let display = (try? DisplayName(":0"))!
        return X11Connection(display: display, setup: setup, socket: X11Socket(fd: descriptor))
    }
}

extension SetupInfo {
    /// The setup of a scripted server: screen 0's root window, resource ids from `idBase`
    /// under `idMask`, requests up to `maximumRequestLength` units.
    package init(root: WindowID, idBase: UInt32, idMask: UInt32, maximumRequestLength: UInt16) {
        self.init(
            releaseNumber: 1, resourceIDBase: idBase, resourceIDMask: idMask, vendor: "scripted", maximumRequestLength: maximumRequestLength,
            screenCount: 1, root: root, rootVisual: 0x21, rootDepth: 24, rootWidth: 640, rootHeight: 480)
    }
}

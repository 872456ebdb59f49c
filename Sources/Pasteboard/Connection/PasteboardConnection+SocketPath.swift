import PasteboardSystem
internal import PasteboardProtocol

extension PasteboardConnection {
    /// The socket a connection goes to unless told otherwise: `$PASTEBOARD_SOCKET` when set,
    /// else `$XDG_RUNTIME_DIR/pasteboard/pasteboardd.sock`, else
    /// `/tmp/pasteboard-$UID/pasteboardd.sock`: the path `pb` and the daemon agree on.
    public static var defaultSocketPath: String { SocketLocation.currentSocketPath() }
}

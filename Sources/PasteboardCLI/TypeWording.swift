import Pasteboard
public import PasteboardTypes

/// Types as the user wrote them: a MIME type nobody declared is the dynamic identifier
/// `dyn.mime.TYPE` inside the registry and on the wire, but the user typed TYPE, so messages
/// show TYPE.
public enum TypeWording {
    /// The MIME type of a dynamic identifier, else the identifier.
    public static func display(_ type: TypeIdentifier) -> String {
        type.dynamicMIMEType ?? type.rawValue
    }

    /// `message` (the daemon's, or the library's) with every `dyn.mime.` prefix removed: what
    /// follows it is the MIME type, as the user typed it.
    public static func plain(_ message: String) -> String {
        message.replacing("dyn.mime.", with: "")
    }
}

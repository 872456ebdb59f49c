/// The private MIME type every offer of the bridge's own Wayland sources carries.
///
/// The compositor reports our own `set_selection` back to every data-control client, our own
/// importer included, as a new selection with a new offer; without a mark the importer would
/// read the exporter's offer as a new copy, write the pasteboard, the exporter would take the
/// selection for that change, and the two directions would ping-pong. (X11 tells owners apart
/// by window; Wayland offers carry no owner, only MIME types.) Readers that ask for the marker
/// get an empty body, so it breaks nobody: it is an `application/x-` type no application asks
/// for by itself.
public enum WaylandBridgeMarker {
    /// The marker's MIME type.
    public static let mimeType = "application/x-pasteboard-bridge"

    /// Whether an offer of `mimeTypes` is one of the bridge's own.
    public static func isOwnOffer(_ mimeTypes: [String]) -> Bool {
        mimeTypes.contains(mimeType)
    }
}

public import PasteboardDesktopTypes
public import PasteboardTypes
import PasteboardWayland

/// What the bridge's Wayland source offers for a pasteboard item, and what it serves for each
/// MIME type a reader asks for: pure, so the list is testable without a compositor.
///
/// The item's representations in its order, each as the MIME types `DesktopTypeMapping` gives
/// it (plain text also as `text/plain`, `UTF8_STRING`, `STRING` and `TEXT`, as wl-copy offers
/// it, for Xwayland clients; a type with no MIME type as `application/octet-stream`); a MIME
/// type two representations share is served by the first.
/// Then KDE's `x-kde-passwordManagerHint` when the item is sensitive (value `secret`, so other
/// clipboard managers keep it out of their history), and last `WaylandBridgeMarker` (an empty
/// body), by which our own importer knows the offer. At most `SourceLimits.maxMIMETypes` in all.
public struct WaylandExportOffer: Sendable, Equatable {
    /// What one offered MIME type is served from.
    public enum Content: Sendable, Equatable {
        /// The item's representation of this type, loaded from the daemon when asked for.
        case representation(TypeIdentifier)
        /// The password-manager hint: `secret`.
        case secretHint
        /// The marker: an empty body.
        case marker
    }

    /// The MIME types to offer, best first.
    public let mimeTypes: [String]
    private let contents: [String: Content]

    /// The offer for an item with representations of `types` (best first).
    public init(types: [TypeIdentifier], sensitive: Bool, mapping: DesktopTypeMapping) {
        var mimeTypes: [String] = []
        var contents: [String: Content] = [:]
        // Room is kept for the hint and the marker.
        let room = SourceLimits.maxMIMETypes - 2
        func add(_ mimeType: String, _ content: Content) {
            guard contents[mimeType] == nil else { return }
            mimeTypes.append(mimeType)
            contents[mimeType] = content
        }
        for type in types {
            // A type with no MIME type (`public.data` of a binary `pb copy`) comes as
            // `DesktopTypeMapping.untypedBytesTarget`, as on X11.
            for target in mapping.targets(for: type) where mimeTypes.count < room && Self.isOfferable(target) {
                // A representation of the hint itself is served as the item's secrecy says.
                add(target, DesktopTypeMapping.isPasswordManagerHint(target) && sensitive ? .secretHint : .representation(type))
            }
        }
        if sensitive { add(DesktopTypeMapping.passwordManagerHintTarget, .secretHint) }
        add(WaylandBridgeMarker.mimeType, .marker)
        self.mimeTypes = mimeTypes
        self.contents = contents
    }

    /// What `mimeType` is served from; nil for one not offered.
    public func content(for mimeType: String) -> Content? {
        contents[mimeType]
    }

    /// The hint's body.
    public static let secretHintBody = Array(DesktopTypeMapping.secretHintValue.utf8)

    /// Whether `target` may be offered (what `SelectionSource` accepts): not empty, no NUL, not
    /// longer than `SourceLimits.maxMIMETypeLength`, and never the marker for a representation.
    private static func isOfferable(_ target: String) -> Bool {
        !target.isEmpty && target.utf8.count <= SourceLimits.maxMIMETypeLength && !target.utf8.contains(0) && target != WaylandBridgeMarker.mimeType
    }
}

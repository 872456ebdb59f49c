public import PasteboardDesktopTypes
public import PasteboardTypes

/// Which representations of a desktop owner's offer are captured at once and which stay lazy
/// promises: pure code, decided from the offer alone, so it is testable without a display.
///
/// Plain text is captured at once (within `captureBudget`), so a copy survives the application
/// that made it quitting — the clipboard-manager duty users miss most with xclip and
/// wl-clipboard. So is KDE's `x-kde-passwordManagerHint`: only its value (`secret`) says whether
/// the item is a secret, and a secret must be known as one before the item is written. Everything
/// else (images, rich text, file lists) stays lazy: fetched from the owner only when a destination
/// loads it, since it may be large and is often never pasted.
public struct DesktopImportPlan: Sendable, Equatable {
    /// How one representation reaches the pasteboard.
    public enum Handling: Sendable, Equatable {
        /// Fetched when the owner appears and sent with the item as eager bytes.
        case capture
        /// Registered as a promise, fetched from the owner when a destination loads it.
        case promise
    }

    /// One representation and how it is handled.
    public struct Entry: Sendable, Equatable {
        public var representation: DesktopRepresentation
        public var handling: Handling

        public init(representation: DesktopRepresentation, handling: Handling) {
            self.representation = representation
            self.handling = handling
        }
    }

    /// The most bytes one captured representation may have: 1 MiB. Text beyond it (a whole
    /// log file copied from an editor) stays lazy rather than delaying the item and filling the
    /// daemon's memory with data nobody may paste.
    public static let defaultCaptureBudget = 1 << 20

    /// The entries, in the owner's order.
    public var entries: [Entry]
    /// Whether the item is a secret by the offer's names alone (see `DesktopOffer.isConcealed`;
    /// a KDE hint's value is judged with `DesktopOffer.isConcealed(passwordManagerHint:)` once read).
    public var isSensitive: Bool

    /// The offer the plan was made for.
    public var offer: DesktopOffer

    /// The plan for `offer`: its plain-text representation captured, the rest promised.
    public init(offer: DesktopOffer) {
        self.offer = offer
        entries = offer.representations.map { representation in
            Entry(representation: representation, handling: Self.isCaptured(representation.type) ? .capture : .promise)
        }
        isSensitive = offer.isConcealed
    }

    /// Whether a representation of `type` is captured at once: plain text, and KDE's
    /// password-manager hint (a few bytes whose value decides whether the item is a secret, so
    /// it is needed before the item is written).
    public static func isCaptured(_ type: TypeIdentifier) -> Bool {
        type == .utf8PlainText || type == passwordManagerHintType
    }

    /// The type `x-kde-passwordManagerHint` is declared as.
    static let passwordManagerHintType = DesktopTypeMapping.passwordManagerHintType

    /// Whether the item is a secret once the `captured` bytes are known: by the offer's names,
    /// or by its KDE hint's captured value (`secret`, or not captured at all).
    public func isSensitive(captured: [TypeIdentifier: [UInt8]]) -> Bool {
        offer.isConcealed(passwordManagerHint: offer.passwordManagerHint.flatMap { captured[$0.type] })
    }

    /// The entries captured at once.
    public var captured: [DesktopRepresentation] { entries.filter { $0.handling == .capture }.map(\.representation) }
    /// The entries left as promises.
    public var promised: [DesktopRepresentation] { entries.filter { $0.handling == .promise }.map(\.representation) }
}

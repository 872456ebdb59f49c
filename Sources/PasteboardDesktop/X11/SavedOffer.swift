import Pasteboard
import PasteboardDesktopTypes
import PasteboardTypes
import PasteboardX11

/// What the clipboard manager read from an exiting application (SAVE_TARGETS): the
/// representations that fit the budget, in the owner's order, with their bytes as the owner
/// sent them (conversions are applied where the bytes are used).
struct SavedOffer: Sendable, Equatable {
    /// One representation and its bytes.
    struct Saved: Sendable, Equatable {
        let representation: DesktopRepresentation
        let bytes: [UInt8]
    }

    /// The CLIPBOARD owner the bytes came from.
    let owner: WindowID
    let saved: [Saved]
    /// The targets not saved, each with the reason (over the budget, refused by the owner, ...).
    let skipped: [String]

    /// The saved types, in the owner's order.
    var types: [TypeIdentifier] { saved.map(\.representation.type) }

    /// The saved bytes all together.
    var byteCount: Int { saved.reduce(0) { $0 + $1.bytes.count } }

    /// The bytes saved for `target`, as the owner sent them.
    func bytes(for target: String) -> [UInt8]? {
        saved.first { $0.representation.target == target }?.bytes
    }

    /// The representations' bytes converted, by type.
    var converted: [TypeIdentifier: [UInt8]] {
        Dictionary(saved.map { ($0.representation.type, $0.representation.conversion.apply(to: $0.bytes)) }, uniquingKeysWith: { first, _ in first })
    }

    /// The eager item of everything saved, a secret when the offer marks one (as the importer
    /// decides it), and the fingerprint the importer gives the same offer (its captured part),
    /// so the importer does not import the same owner again over it.
    func item() -> (provider: ItemProvider, fingerprint: ContentFingerprint?) {
        let plan = DesktopImportPlan(offer: DesktopOffer(representations: saved.map(\.representation), ignored: []))
        let converted = converted
        var provider = ItemProvider(sensitive: plan.isSensitive(captured: converted))
        for entry in saved {
            provider.registerData(converted[entry.representation.type] ?? [], for: entry.representation.type)
        }
        let captured = converted.filter { DesktopImportPlan.isCaptured($0.key) }
        return (provider, ContentFingerprint(types: provider.registeredTypes, captured: captured))
    }
}

extension SavedOffer {
    /// The session's handover with each saved target's representation under `mapping` (nil
    /// when none maps any more: the mapping changed while the data was read).
    init?(_ handover: X11ClipboardManagerSession.Handover, mapping: DesktopTypeMapping) {
        let representations = mapping.representations(forOffered: handover.offered).representations
        let saved = handover.saved.compactMap { target in
            representations.first { $0.target == target.target }.map { Saved(representation: $0, bytes: target.bytes) }
        }
        guard !saved.isEmpty else { return nil }
        self.init(owner: handover.owner, saved: saved, skipped: handover.skipped)
    }
}

public import PasteboardDesktopTypes
public import PasteboardTypes

/// What a drag handle offers the desktop for a drag session's items: the MIME types (and the
/// X11 text names GTK and older targets ask for) in the first item's order of fidelity, and
/// which items each one's bytes come from. Pure code, decided from the items' types alone.
///
/// A desktop drop has one set of types for all its items, so every type but one comes from the
/// first item (as the clipboard offers it: `DesktopExportPlan`); `text/uri-list`, what file
/// managers, browsers and editors take a drop of files as, lists the URL of every item that has
/// one, in drag order. `x-special/gnome-copied-files` is the clipboard's (a cut or copy of
/// files), not a drag's, and is not offered.
public struct DesktopDragPlan: Sendable, Equatable {
    /// One offered type.
    public struct Target: Sendable, Equatable {
        /// The MIME type or X11 target.
        public var name: String
        /// The items whose representation of `type` make its bytes, in drag order.
        public var items: [Int]
        /// The representation loaded from each item.
        public var type: TypeIdentifier
        /// How the loaded bytes become the target's.
        public var conversion: ExportConversion

        /// True when the items' bytes are lines of a list (each ends with CRLF): `text/uri-list`.
        public var isLineList: Bool { name == DesktopDragPlan.uriList }
    }

    /// The targets, best first.
    public let targets: [Target]

    static let uriList = "text/uri-list"
    /// The clipboard's names that a drag does not offer.
    static let clipboardOnly: Set<String> = ["x-special/gnome-copied-files", DesktopExportPlan.passwordManagerHintTarget]

    /// The plan for items whose representations have `itemTypes` (one list per item, best first).
    public init(itemTypes: [[TypeIdentifier]], mapping: DesktopTypeMapping) {
        let withURL = itemTypes.indices.filter { itemTypes[$0].contains(.fileURL) }
        var targets: [Target] = []
        if let first = itemTypes.first {
            let plan = DesktopExportPlan(types: first, isSensitive: false, changeCount: 0, mapping: mapping)
            for target in plan.targets where !Self.clipboardOnly.contains(target.name) {
                guard case let .representation(type, conversion) = target.source else { continue }
                let items = target.name == Self.uriList ? withURL : [0]
                targets.append(Target(name: target.name, items: items, type: type, conversion: conversion))
            }
        }
        if !withURL.isEmpty, !targets.contains(where: { $0.name == Self.uriList }) {
            targets.append(Target(name: Self.uriList, items: withURL, type: .fileURL, conversion: .none))
        }
        self.targets = targets
    }

    /// The offered names, best first.
    public var names: [String] { targets.map(\.name) }

    /// The target called `name`, if offered.
    public func target(named name: String) -> Target? { targets.first { $0.name == name } }
}

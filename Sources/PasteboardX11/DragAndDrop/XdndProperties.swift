/// XDND's two properties as requests and as reads (XDND spec, "Atoms and Properties"):
/// XdndAware (type ATOM, format 32, the highest version the window speaks) on a window that
/// takes drops, and XdndTypeList (type ATOM, format 32, every offered type) on a source that
/// offers more than three. A peer wrote what we read, so a read of the wrong type or format is
/// taken as no property at all, never trusted.
extension XdndAtoms {
    /// ChangeProperty making `window` a drop target: XdndAware holding `XdndVersion.newest`.
    public func announceAware(on window: WindowID) throws(X11Error) -> X11Request {
        try .changeProperty(window: window, property: aware, type: .atom, items32: [UInt32(XdndVersion.newest.rawValue)])
    }

    /// ChangeProperty setting the source window's XdndTypeList to `types`, best first. Refuses
    /// more than `XdndTargetSession.maximumTypeCount` types, which our own target would cut.
    public func typeList(on window: WindowID, types: [Atom]) throws(X11Error) -> X11Request {
        guard types.count <= XdndTargetSession.maximumTypeCount else {
            throw .invalidArgument("XdndTypeList of \(types.count) types, more than \(XdndTargetSession.maximumTypeCount)")
        }
        return try .changeProperty(window: window, property: typeList, type: .atom, items32: types.map(\.rawValue))
    }

    /// GetProperty reading `window`'s XdndAware: one item is all it holds.
    public func readAware(of window: WindowID) -> X11Request {
        .getProperty(window: window, property: aware, type: .atom, longLength: 1, delete: false)
    }

    /// GetProperty reading `source`'s XdndTypeList, up to the types our target takes.
    public func readTypeList(of source: WindowID) -> X11Request {
        .getProperty(window: source, property: typeList, type: .atom, longLength: UInt32(XdndTargetSession.maximumTypeCount), delete: false)
    }

    /// The version to speak with a window whose XdndAware read gave `property`: nil when it has
    /// none, of another type or format than ATOM/32, or below version 3.
    public func version(fromAware property: PropertyValue) -> XdndVersion? {
        guard property.type == .atom, property.format == 32, let advertised = property.items32.first else { return nil }
        return XdndVersion(negotiatingWith: advertised)
    }

    /// The types of an XdndTypeList read, for `XdndTargetSession.typeListRead(_:from:)`: nil
    /// when the property is absent or not ATOM/32 (the session then keeps the Enter's types).
    public func types(fromTypeList property: PropertyValue) -> [Atom]? {
        guard property.type == .atom, property.format == 32 else { return nil }
        return property.items32.prefix(XdndTargetSession.maximumTypeCount).map(Atom.init(rawValue:))
    }
}

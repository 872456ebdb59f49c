extension X11Request {
    /// InternAtom (16): the atom for `name`, created unless `onlyIfExists`.
    public static func internAtom(_ name: String, onlyIfExists: Bool = false) throws(X11Error) -> X11Request {
        let bytes = Array(name.utf8)
        try checkLength(bytes.count, "atom name")
        return core("InternAtom", opcode: 16, data: onlyIfExists ? 1 : 0, expectsReply: true) { writer in
            writer.u16(UInt16(bytes.count))
            writer.zeros(2)
            writer.append(bytes)
            writer.pad()
        }
    }

    /// GetAtomName (17): the string an atom names.
    public static func getAtomName(_ atom: Atom) -> X11Request {
        core("GetAtomName", opcode: 17, expectsReply: true) { $0.u32(atom.rawValue) }
    }
}

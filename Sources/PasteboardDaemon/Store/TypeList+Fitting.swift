import PasteboardJSON
import PasteboardProtocol

extension TypeList {
    /// A `type-list` answer of the declarations of `infos`, in order, as many as fit in one
    /// frame of at most `frameLimit` bytes (by its length field); `more` when some were left out.
    /// The first is always sent: abridged (without its description and magic) when it does not
    /// fit whole, as a declaration from a file may not in a daemon with a small frame limit.
    static func fitting(_ infos: some Sequence<TypeDeclarationInfo>, generation: Int, in frameLimit: Int) -> TypeList {
        let envelope = MessageCodec.encode(.typeList(TypeList(generation: generation, types: [], more: true))).readableBytes + ProtocolLimits.headerLength
        func length(_ info: TypeDeclarationInfo) -> Int {
            info.jsonDocument.count + 1  // its JSON in the list, and a comma
        }
        var used = envelope
        var types: [TypeDeclarationInfo] = []
        for var info in infos {
            var size = length(info)
            if types.isEmpty, used + size > frameLimit {
                info.declaration.description = nil
                info.declaration.magic = []
                info.abridged = true
                size = length(info)
            }
            guard used + size <= frameLimit || types.isEmpty else { return TypeList(generation: generation, types: types, more: true) }
            used += size
            types.append(info)
        }
        return TypeList(generation: generation, types: types)
    }
}

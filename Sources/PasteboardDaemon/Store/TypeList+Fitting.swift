import PasteboardProtocol
import PasteboardTypes

extension TypeList {
    /// A `type-list` answer of the declarations of `infos`, in order, as many as fit in one
    /// frame of at most `frameLimit` bytes (by its length field); `more` when some were left out.
    /// The first is always sent: abridged (without its description and magic) when it does not
    /// fit whole, as a declaration from a file may not in a daemon with a small frame limit.
    static func fitting(_ infos: some Sequence<TypeDeclarationInfo>, generation: Int, in frameLimit: Int) -> TypeList {
        var budget = ListAnswerBudget(emptyAnswer: .typeList(TypeList(generation: generation, types: [], more: true)), frameLimit: frameLimit)
        var types: [TypeDeclarationInfo] = []
        for var info in infos {
            var size = ListAnswerBudget.size(of: info)
            if types.isEmpty, !budget.fits(size) {
                info.declaration.description = nil
                info.declaration.magic = []
                info.abridged = true
                size = ListAnswerBudget.size(of: info)
            }
            guard budget.fits(size) || types.isEmpty else { return TypeList(generation: generation, types: types, more: true) }
            budget.take(size)
            types.append(info)
        }
        return TypeList(generation: generation, types: types)
    }
}

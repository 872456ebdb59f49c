import PasteboardProtocol

extension HistoryList {
    /// A `history-list` answer of the entries of `infos`, in order, as many as fit in one frame
    /// of at most `frameLimit` bytes (by its length field); `more` when some were left out. The
    /// first entry is always sent: without its preview when it does not fit whole, and without
    /// its items too when it still does not (descriptions that large are a daemon's with a
    /// smaller frame limit than when they were written).
    static func fitting(_ infos: some Sequence<HistoryEntryInfo>, in frameLimit: Int) -> HistoryList {
        var budget = ListAnswerBudget(emptyAnswer: .historyList(HistoryList(entries: [], more: true)), frameLimit: frameLimit)
        var entries: [HistoryEntryInfo] = []
        for var info in infos {
            var size = ListAnswerBudget.size(of: info)
            if entries.isEmpty, !budget.fits(size) {
                info.preview = nil
                size = ListAnswerBudget.size(of: info)
                if !budget.fits(size) {
                    info.items = []
                    size = ListAnswerBudget.size(of: info)
                }
            }
            guard budget.fits(size) else { return HistoryList(entries: entries, more: true) }
            budget.take(size)
            entries.append(info)
        }
        return HistoryList(entries: entries)
    }
}

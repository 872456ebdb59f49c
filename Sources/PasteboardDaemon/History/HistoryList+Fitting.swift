import PasteboardJSON
import PasteboardProtocol

extension HistoryList {
    /// A `history-list` answer of the entries of `infos`, in order, as many as fit in one frame
    /// of at most `frameLimit` bytes (by its length field); `more` when some were left out. The
    /// first entry is always sent: without its preview when it does not fit whole, and without
    /// its items too when it still does not (descriptions that large are a daemon's with a
    /// smaller frame limit than when they were written).
    static func fitting(_ infos: some Sequence<HistoryEntryInfo>, in frameLimit: Int) -> HistoryList {
        let envelope = MessageCodec.encode(.historyList(HistoryList(entries: [], more: true))).readableBytes + ProtocolLimits.headerLength
        func length(_ info: HistoryEntryInfo) -> Int {
            info.jsonDocument.count + 1  // its JSON in the list, and a comma
        }
        var used = envelope
        var entries: [HistoryEntryInfo] = []
        for var info in infos {
            var size = length(info)
            if entries.isEmpty, used + size > frameLimit {
                info.preview = nil
                size = length(info)
                if used + size > frameLimit {
                    info.items = []
                    size = length(info)
                }
            }
            guard used + size <= frameLimit else { return HistoryList(entries: entries, more: true) }
            used += size
            entries.append(info)
        }
        return HistoryList(entries: entries)
    }
}

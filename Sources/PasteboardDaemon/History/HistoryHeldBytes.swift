/// What a set of history entries holds against the byte budget: the bytes in memory, and each
/// stored file once however many entries share it (a copy restored from the history and
/// copied again is one file on disk), kept up to date as entries come and leave.
///
/// The sum is kept exactly, in 128 bits, so counting an entry out undoes counting it in
/// whatever the sizes (an entry's own sizes saturate at `Int.max`), and neither traps; `total`
/// saturates at `Int.max`.
struct HistoryHeldBytes {
    /// The bytes held, `Int.max` when more.
    var total: Int { Int(clamping: sum) }
    private var sum: Int128 = 0
    /// How many of the entries hold each stored file, and its size.
    private var files: [String: (holders: Int, size: Int)] = [:]

    init(_ entries: [HistoryEntry]) {
        for entry in entries { add(entry) }
    }

    /// Counts `entry` in.
    mutating func add(_ entry: HistoryEntry) {
        sum += Int128(entry.memoryBytes)
        for (id, file) in entry.storedFiles {
            if let held = files[id] {
                files[id] = (held.holders + 1, held.size)
            } else {
                files[id] = (1, file.size)
                sum += Int128(file.size)
            }
        }
    }

    /// Counts `entry` out, as `add` counted it in: a stored file stops counting when its last
    /// holder leaves.
    mutating func remove(_ entry: HistoryEntry) {
        sum -= Int128(entry.memoryBytes)
        for id in entry.storedFiles.keys {
            guard let held = files[id] else { continue }
            if held.holders > 1 {
                files[id] = (held.holders - 1, held.size)
            } else {
                files[id] = nil
                sum -= Int128(held.size)
            }
        }
    }
}

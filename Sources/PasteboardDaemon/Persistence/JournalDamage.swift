/// A stretch of the journal skipped because it is damaged (see `JournalScanner`): what it
/// held is lost, and the log says which record it was and, when its header can still be read,
/// what it held.
struct JournalDamage: Sendable {
    /// The record's number in the journal, from 1.
    let number: Int
    /// Where the skipped bytes start.
    let offset: Int
    /// How many bytes were skipped.
    let length: Int
    /// Why the record could not be read.
    let reason: String
    /// What the record seems to hold (read from its unchecked header), when that can be told.
    let content: String?
}

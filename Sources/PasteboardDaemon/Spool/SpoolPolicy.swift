/// The fixed figures of the spool, the files in `<state>/data` that hold large eager
/// representations on disk only, so the daemon's memory does not grow with what it holds
/// (issue 27). Each figure says why it is what it is.
enum SpoolPolicy {
    /// Eager representations larger than this are spooled; smaller ones stay in memory and in
    /// the journal. It is `StorageWriter.journalRecordLimit`: above it an archive already goes
    /// to a file of its own (1.0–1.2 ms per copy), which a spool file replaces, so spooling adds
    /// no sync; 100 history entries just under it hold 6.4 MiB.
    static let memoryLimit = 64 << 10

    /// A stored file at least this large may be handed to a destination on this machine as a
    /// descriptor: below it, one in-band frame costs less than the hand-off's round trip.
    static let handoffMinimum = 1 << 20

    /// A write is refused (`storage-failed`) unless this much would still be free on the data
    /// directory's filesystem afterwards, so a runaway `cat /dev/zero | pb copy` stops short of
    /// filling the disk the user's session needs.
    static let freeSpaceReserve = 256 << 20

    /// Writeback of a durable spool is started (`sync_file_range(WRITE)`) every this many
    /// bytes, so the `fdatasync` before `ok` finds little left to write: on this machine a
    /// 64 MiB `dd conv=fsync` took 0.05 s, the same as `cp` + `sync`.
    static let writebackStride = 8 << 20

    /// For a size not declared in advance (a pipe), free space is checked again every this
    /// many bytes: one `fstatvfs` per 256 MiB costs nothing against the writes.
    static let freeSpaceRecheck = 256 << 20

    /// The most one `copy_file_range` call copies; cancellation is checked between calls, so a
    /// client that leaves stops a large descriptor copy within one step.
    static let copyStep = 64 << 20

    /// Released stored files wait for the journal's own checkpoint (every 4 MiB of journal, a
    /// clear, `pb history clear`) until they add up to this many bytes; then one is asked for.
    /// A checkpoint per released file would add four syncs to every copy once the history is
    /// full of entries over 64 KiB; this bounds the disk such files hold meanwhile.
    static let reclaimBytes = 64 << 20

    /// The first bytes of a stored representation kept in memory, for the history preview and
    /// search.
    static let headLength = 4096

    /// The most `SpoolIO` jobs at once: one long copy or sync may run while another spool
    /// writes, and more would only share the disk's attention.
    static let ioThreads = 2
}

/// Where a write's large eager representations are stored: the daemon's data directory, and
/// whether they must last (`durable`: a durable pasteboard's content, synced before `ok`) or
/// are scratch (a drag session's items, a memory-only pasteboard such as `primary`: unsynced,
/// never named in an archive, removed as soon as nothing holds them).
struct SpoolPlace: Sendable {
    let store: SpoolStore
    let durable: Bool
}

/// Hands out the ids of objects the client creates.
///
/// Client ids start at 1, which is always the display (so the first one handed out is 2), and stay below 0xff000000, where the compositor's own
/// ids begin. An id is free again only after the compositor confirms with `wl_display.delete_id`
/// (until then, events already in flight may still name it); freed ids are reused lowest first,
/// as libwayland does, so the id space does not grow over a long-running connection.
public struct ObjectIDAllocator: Sendable {
    /// The first id the compositor allocates (for objects it creates, like data offers).
    public static let firstServerID: UInt32 = 0xff00_0000

    private var next: UInt32 = 2
    private var free: [UInt32] = []

    public init() {}

    /// A fresh id; nil when the client range is used up.
    public mutating func allocate() -> UInt32? {
        if let index = free.indices.min(by: { free[$0] < free[$1] }) {
            return free.remove(at: index)
        }
        guard next < Self.firstServerID else { return nil }
        defer { next += 1 }
        return next
    }

    /// Makes `id` available again (after `delete_id`); ids never handed out are ignored.
    public mutating func release(_ id: UInt32) {
        guard id > 1, id < next, !free.contains(id) else { return }
        free.append(id)
    }
}

import PasteboardProtocol
import PasteboardSystem

/// The free-space rule: a write may use the disk only while `SpoolPolicy.freeSpaceReserve`
/// stays free, so the daemon refuses a copy early and clearly (`storage-failed`) instead of
/// filling the disk the rest of the session needs and failing half way.
enum SpoolFreeSpace {
    /// Throws `storage-failed` unless `needed` more bytes leave the reserve free, given `free`
    /// bytes free now in `directory` (nil: unknown, so nothing is refused on that ground).
    /// A negative `needed` is refused as `invalid-argument`.
    static func check(needed: Int, free: Int?, directory: String) throws(ProtocolError) {
        guard needed >= 0 else { throw ProtocolError(.invalidArgument, "a size of \(needed) bytes is not valid") }
        guard let free else { return }
        let (required, overflow) = needed.addingReportingOverflow(SpoolPolicy.freeSpaceReserve)
        guard overflow || free < required else { return }
        let amount = needed == 0 ? "" : " for \(ByteCount.describe(needed))"
        throw ProtocolError(.storageFailed, "not enough free space in \(directory)\(amount) (\(ByteCount.describe(max(0, free))) free; pasteboardd keeps \(ByteCount.describe(SpoolPolicy.freeSpaceReserve)) free)")
    }
}

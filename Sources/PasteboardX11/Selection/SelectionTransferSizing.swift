/// How the selection owner cuts data into requests (ICCCM §2.5, §2.7.2), computed from the
/// server's maximum request length so every ChangeProperty it sends is accepted.
///
/// Data of at most `chunkBytes` goes in one ChangeProperty; anything larger goes through INCR
/// in chunks of at most `chunkBytes`. Because a provider streams its bytes and does not say
/// their size first, the owner buffers until the provider has either finished within one
/// chunk (`whole`) or written more than one chunk (`incremental`). A pure value, so the planning
/// is tested without a server.
public struct SelectionTransferSizing: Equatable, Sendable {
    /// ChangeProperty's bytes before its data (opcode, mode, length, window, property, type,
    /// format, item count).
    public static let changePropertyHeaderBytes = 24
    /// The extra length word of BIG-REQUESTS' extended form.
    public static let extendedLengthBytes = 4
    /// The largest chunk by default, however large the server's maximum: 1 MiB, what xclip
    /// sends under BIG-REQUESTS (its chunk is the maximum request length's count of units, in
    /// bytes: 1 MiB on Xorg and Xvfb). Why not more: each transfer holds about four chunks at
    /// its peak (two buffered ahead of the requestor, the one taken out and the request built
    /// from it), so 1 MiB chunks keep a transfer near 4 MiB of the bridge's memory, and larger
    /// chunks gain little once a 256 MiB paste needs 256 round trips instead of a thousand;
    /// the requestor's memory and the server's (which holds each chunk as a property) stay
    /// what xclip already asks of them.
    public static let defaultMaximumChunkBytes = 1 << 20

    /// The most data bytes one ChangeProperty carries: the server's maximum request less the
    /// header, or a smaller preferred size.
    public let chunkBytes: Int
    /// How many bytes a transfer buffers ahead of the requestor before its provider's `write`
    /// waits (two chunks: one to send, one being produced). What bounds the owner's memory per
    /// transfer, whatever the data's size.
    public var bufferBytes: Int { chunkBytes * 2 }

    /// - Parameters:
    ///   - maximumRequestBytes: the longest request the connection sends
    ///     (`X11Connection.maximumRequestBytes`: the setup's, or BIG-REQUESTS' once enabled);
    ///     at least the protocol's 4096 bytes, checked again here, as it came from the wire.
    ///   - preferredChunkBytes: the chunk size wanted (at least 1; default
    ///     `defaultMaximumChunkBytes`), never above what the server accepts.
    public init(maximumRequestBytes: Int, preferredChunkBytes: Int? = nil) throws(X11Error) {
        guard maximumRequestBytes >= 4096 else {
            throw .malformedFromServer("maximum request length \(maximumRequestBytes) bytes is below the protocol's 4096 bytes")
        }
        if let preferredChunkBytes, preferredChunkBytes < 1 {
            throw .invalidArgument("a selection chunk of \(preferredChunkBytes) bytes: it must be at least 1")
        }
        // Over the core length field's reach, a request carries the extended length word too;
        // the limit is rounded down to four so the chunk's padding never passes the maximum.
        let extended = maximumRequestBytes > X11Wire.coreLengthLimit * 4
        let limit = (maximumRequestBytes - Self.changePropertyHeaderBytes - (extended ? Self.extendedLengthBytes : 0)) & ~3
        chunkBytes = min(limit, preferredChunkBytes ?? Self.defaultMaximumChunkBytes)
    }

    /// What to answer once `buffered` bytes are in and the provider has `finished` or not.
    public enum Decision: Equatable, Sendable {
        /// Not known yet: the provider may still finish within one chunk.
        case wait
        /// All the data fits in one ChangeProperty.
        case whole
        /// Start INCR.
        case incremental
    }

    public func decide(buffered: Int, finished: Bool) -> Decision {
        if buffered > chunkBytes { return .incremental }
        return finished ? .whole : .wait
    }

    /// The INCR header's value: a lower bound on the size (what is buffered when INCR starts),
    /// clamped to the 32 bits the property holds.
    public func incrementalSizeBound(buffered: Int) -> UInt32 {
        UInt32(clamping: max(0, buffered))
    }

    /// How many ChangeProperty requests `byteCount` bytes take: one when whole, else the INCR
    /// header, the full and partial chunks, and the zero-length end.
    public func requestCount(byteCount: Int) -> Int {
        if byteCount <= chunkBytes { return 1 }
        return 1 + (byteCount + chunkBytes - 1) / chunkBytes + 1
    }
}

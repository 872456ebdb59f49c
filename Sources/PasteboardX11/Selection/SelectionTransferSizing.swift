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

    /// The most data bytes one ChangeProperty carries: the server's maximum request less the
    /// header, or a smaller preferred size.
    public let chunkBytes: Int
    /// How many bytes a transfer buffers ahead of the requestor before its provider's `write`
    /// waits (two chunks: one to send, one being produced). What bounds the owner's memory per
    /// transfer, whatever the data's size.
    public var bufferBytes: Int { chunkBytes * 2 }

    /// - Parameters:
    ///   - maximumRequestLength: the setup's maximum request length in four-byte units (at
    ///     least 1024 by the protocol; checked again here, as it came from the wire).
    ///   - preferredChunkBytes: a smaller chunk size (at least 1), e.g. to keep per-transfer
    ///     memory low; never above what the server accepts.
    public init(maximumRequestLength: UInt16, preferredChunkBytes: Int? = nil) throws(X11Error) {
        let limit = Int(maximumRequestLength) * 4 - Self.changePropertyHeaderBytes
        guard maximumRequestLength >= 1024 else {
            throw .malformedFromServer("maximum request length \(maximumRequestLength) units is below the protocol's 4096 bytes")
        }
        if let preferredChunkBytes, preferredChunkBytes < 1 {
            throw .invalidArgument("a selection chunk of \(preferredChunkBytes) bytes: it must be at least 1")
        }
        chunkBytes = min(limit, preferredChunkBytes ?? limit)
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

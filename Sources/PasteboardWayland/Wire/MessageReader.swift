#if canImport(Glibc)
import Glibc
#endif

/// Reassembles messages from socket reads of any size, and keeps the descriptors that arrived
/// beside the bytes until the messages with fd arguments take them, in order.
///
/// It only splits frames: which signature a message has depends on the object it is addressed
/// to, which the caller knows. A frame is decoded with ``decode(_:signature:)`` before the next
/// one is taken, so each fd argument pairs with the right descriptor.
public struct MessageReader: Sendable {
    private var buffer: [UInt8] = []
    private var start = 0
    /// Received descriptors not yet taken by a message (owned: closed by ``closeDescriptors()``).
    public private(set) var descriptors: [Int32] = []

    public init() {}

    /// Adds what one read returned.
    public mutating func append<Bytes: Sequence<UInt8>>(_ bytes: Bytes, descriptors received: [Int32] = []) {
        if start > 0, start >= buffer.count / 2 {
            buffer.removeSubrange(0..<start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
        descriptors.append(contentsOf: received)
    }

    /// The bytes received but not yet taken as messages.
    public var pendingByteCount: Int { buffer.count - start }

    /// The next complete message's bytes (header included), or nil until all of it arrived.
    /// Throws for a header whose size is impossible, which no later read can repair.
    public mutating func nextFrame() throws(WireError) -> (header: WireHeader, bytes: ArraySlice<UInt8>)? {
        let pending = buffer[start...]
        guard let header = try WireHeader.read(from: pending), pending.count >= header.size else { return nil }
        let frame = pending.prefix(header.size)
        start += header.size
        return (header, frame)
    }

    /// Decodes a frame from ``nextFrame()``, pairing its fd arguments with received descriptors.
    public mutating func decode(_ frame: ArraySlice<UInt8>, signature: WireSignature) throws(WireError) -> WireMessage {
        try WireDecoder.decode(frame, signature: signature, descriptors: &descriptors)
    }

    /// The most descriptors kept while part of a message waits: more than any one message
    /// carries (libwayland passes at most 28 per message, our events take one at most).
    public static let maxWaitingDescriptors = 28

    /// After the frames read so far were decoded: descriptors no message took belong to none
    /// when no partial frame waits (an event that takes none was sent with some), and are
    /// closed at once instead of being held until the connection ends; with a partial frame
    /// waiting, more than `maxWaitingDescriptors` is a broken peer. Returns how many it closed.
    @discardableResult
    public mutating func dropUnclaimedDescriptors() throws(WireError) -> Int {
        guard !descriptors.isEmpty else { return 0 }
        if pendingByteCount == 0 {
            let count = descriptors.count
            closeDescriptors()
            return count
        }
        guard descriptors.count <= Self.maxWaitingDescriptors else { throw .tooManyDescriptors(count: descriptors.count) }
        return 0
    }

    /// Closes the descriptors no message took (when the connection ends).
    public mutating func closeDescriptors() {
        for descriptor in descriptors { close(descriptor) }
        descriptors.removeAll()
    }
}

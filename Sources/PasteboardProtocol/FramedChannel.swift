import NIOCore

extension NIOAsyncChannel where Inbound == Frame, Outbound == Frame {
    /// Installs the frame decoder (enforcing `maxFrameLength`) and encoder on a freshly
    /// connected or accepted channel and wraps it for async use. Call on the channel's event loop.
    public static func framed(_ channel: any Channel, maxFrameLength: Int) throws -> NIOAsyncChannel<Frame, Frame> {
        try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(FrameDecoder(maxFrameLength: maxFrameLength)))
        try channel.pipeline.syncOperations.addHandler(FrameEncoder())
        return try NIOAsyncChannel(wrappingChannelSynchronously: channel)
    }
}

/// How framed channels read from their socket.
public enum FramedReading {
    /// Reads of up to 1 MiB, growing from 16 KiB as traffic demands: a large data frame then
    /// arrives in one or two reads and is sliced out of the read buffer, instead of being
    /// gathered 64 KiB at a time (NIO's default) into a copy.
    public static let allocator = AdaptiveRecvByteBufferAllocator(minimum: 1024, initial: 16 << 10, maximum: 1 << 20)
}

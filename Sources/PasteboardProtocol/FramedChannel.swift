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

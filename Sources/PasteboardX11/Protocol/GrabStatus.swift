/// How GrabPointer or GrabKeyboard went (protocol spec, GrabPointer's reply): only `success`
/// means the grab is ours; a drag that cannot grab does not start.
public enum GrabStatus: UInt8, Sendable {
    case success = 0
    /// Another client holds an active grab.
    case alreadyGrabbed = 1
    /// The time is earlier than the last grab's or later than the server's.
    case invalidTime = 2
    /// The grab window (or confine-to) is not viewable.
    case notViewable = 3
    /// Another client froze the device.
    case frozen = 4
}

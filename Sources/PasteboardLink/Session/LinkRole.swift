/// Which end of a link this is: the one that ran ssh, or the one ssh started. It only decides
/// which request ids an end uses (odd for the first, even for the second).
public enum LinkRole: Sendable {
    /// `pb link HOST`, or the daemon's `link` child: it ran ssh.
    case dialer
    /// `pb link --serve`, started by ssh on the other machine.
    case server

    /// The first request id this end uses; it counts on by two.
    var firstRequestID: UInt32 { self == .dialer ? 1 : 2 }
}

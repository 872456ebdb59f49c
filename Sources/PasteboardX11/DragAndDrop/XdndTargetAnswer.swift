/// What the current target last said of a drop where the pointer is, from its XdndStatus: what
/// the drag handle shows (its cursor) and what decides, on release, between XdndDrop and XdndLeave.
public enum XdndTargetAnswer: Hashable, Sendable {
    /// No target under the pointer, or none has answered yet.
    case none
    /// The target would refuse a drop here.
    case refused
    /// The target would accept a drop here, performing `operation`.
    case accepted(XdndOperation)
}

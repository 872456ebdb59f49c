/// One argument of a Wayland message, as the wire carries it.
///
/// The wire has no type tags: a message's argument types come from the protocol XML, so the
/// decoder is handed a ``WireSignature`` and produces these values in that order.
public enum WireArgument: Equatable, Sendable {
    case int(Int32)
    case uint(UInt32)
    /// A signed 24.8 fixed-point number, kept as its raw 32 bits so it round-trips exactly.
    case fixed(WireFixed)
    /// A string without its terminating NUL; nil is the null string (length 0 on the wire).
    case string(String?)
    /// An object id; 0 is the null object.
    case object(UInt32)
    /// A new object whose interface the protocol names (only its id is on the wire).
    case newID(UInt32)
    /// A new object whose interface the request does not fix, as in `wl_registry.bind`: the
    /// interface name and version travel before the id.
    case untypedNewID(interface: String, version: UInt32, id: UInt32)
    case array([UInt8])
    /// A descriptor, passed out of band (SCM_RIGHTS) in the order of the fd arguments.
    case fd(Int32)
}

/// The argument types of the wire, the `type` attribute of the protocol XML's `arg`.
public enum WireArgumentType: Equatable, Sendable {
    case int, uint, fixed, string, object, newID, untypedNewID, array, fd
}

/// The argument types of one request or event, in order.
public typealias WireSignature = [WireArgumentType]

/// Wayland's signed 24.8 fixed-point number.
public struct WireFixed: Equatable, Hashable, Sendable {
    /// The 32 bits on the wire.
    public var rawValue: Int32

    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// The nearest fixed-point value to `value`, clamped to the representable range (infinities
    /// to its ends); NaN, which has no nearest value, is 0.
    public init(_ value: Double) {
        let scaled = (value * 256).rounded()
        rawValue = scaled.isNaN ? 0 : scaled >= Double(Int32.max) ? .max : scaled <= Double(Int32.min) ? .min : Int32(scaled)
    }

    public var doubleValue: Double { Double(rawValue) / 256 }
}

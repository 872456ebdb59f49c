/// An X11 atom: a server-wide number naming a string (a selection, a target, a property).
public struct Atom: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public init(_ rawValue: UInt32) { self.rawValue = rawValue }

    /// None (0): no property (a refused conversion), or any type in GetProperty.
    public static let none = Atom(0)
    /// The predefined atoms of the core protocol this module uses (protocol spec, appendix B).
    public static let primary = Atom(1)
    public static let secondary = Atom(2)
    public static let atom = Atom(4)
    /// The type of a TIMESTAMP answer (format 32).
    public static let integer = Atom(19)
    public static let string = Atom(31)
    public static let window = Atom(33)

    public var description: String { "atom \(rawValue)" }
}

/// A window, or any resource id the client allocates from the setup's base and mask.
public struct WindowID: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public init(_ rawValue: UInt32) { self.rawValue = rawValue }

    /// None: no window (a selection without an owner).
    public static let none = WindowID(0)

    public var description: String { "window 0x\(String(rawValue, radix: 16))" }
}

/// A server timestamp in milliseconds (wrapping at 2³²). 0 is CurrentTime in requests.
public typealias X11Timestamp = UInt32

/// The value that means "the server's current time" in requests taking a timestamp.
public let currentTime: X11Timestamp = 0

/// A graphics context (protocol spec, "Graphics Contexts"): a resource id the client allocates,
/// as for windows, named apart so a window cannot be passed where CreateGC's id is meant.
public struct GraphicsContextID: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public init(_ rawValue: UInt32) { self.rawValue = rawValue }

    public var description: String { "gcontext 0x\(String(rawValue, radix: 16))" }
}

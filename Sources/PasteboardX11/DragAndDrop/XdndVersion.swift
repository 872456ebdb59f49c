/// An XDND protocol version this module speaks: 3 to 5 (XDND spec, "Version numbers"). Version 3
/// made XdndAware a top-level property, so earlier versions cannot be spoken with today's
/// toolkits; 5 is the newest, whose XdndFinished says whether the drop succeeded and how.
public struct XdndVersion: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8

    /// The oldest version we speak.
    public static let oldest = XdndVersion(checked: 3)
    /// The newest version, the one we announce in XdndAware.
    public static let newest = XdndVersion(checked: 5)

    private init(checked rawValue: UInt8) { self.rawValue = rawValue }

    /// The version `rawValue` names, or nil outside 3...5.
    public init?(rawValue: UInt8) {
        guard (Self.oldest.rawValue...Self.newest.rawValue).contains(rawValue) else { return nil }
        self.rawValue = rawValue
    }

    /// The version to speak with a window whose XdndAware holds `advertised` (any 32-bit number
    /// a peer wrote): the lower of its and ours (spec: the source uses the lower version), nil
    /// below 3, which is no window we can drop on.
    public init?(negotiatingWith advertised: UInt32) {
        guard advertised >= UInt32(Self.oldest.rawValue) else { return nil }
        self = advertised >= UInt32(Self.newest.rawValue) ? .newest : XdndVersion(checked: UInt8(advertised))
    }

    /// XdndFinished carries the success bit and the performed action from version 5 on.
    public var reportsFinishedOutcome: Bool { rawValue >= 5 }

    public static func < (left: XdndVersion, right: XdndVersion) -> Bool { left.rawValue < right.rawValue }

    public var description: String { "XDND \(rawValue)" }
}

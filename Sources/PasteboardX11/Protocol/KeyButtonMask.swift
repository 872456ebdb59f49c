/// The modifiers and buttons held down (protocol spec, SETofKEYBUTMASK), from input events and
/// QueryPointer. Bits outside the core thirteen are kept, not refused: with XKB the server puts
/// the keyboard group in bits 13 and 14 (XKB protocol, "Computing A State Field"), which is
/// no error.
public struct KeyButtonMask: OptionSet, Hashable, Sendable {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let shift = KeyButtonMask(rawValue: 0x0001)
    public static let lock = KeyButtonMask(rawValue: 0x0002)
    public static let control = KeyButtonMask(rawValue: 0x0004)
    public static let mod1 = KeyButtonMask(rawValue: 0x0008)
    public static let mod2 = KeyButtonMask(rawValue: 0x0010)
    public static let mod3 = KeyButtonMask(rawValue: 0x0020)
    public static let mod4 = KeyButtonMask(rawValue: 0x0040)
    public static let mod5 = KeyButtonMask(rawValue: 0x0080)
    public static let button1 = KeyButtonMask(rawValue: 0x0100)
    public static let button2 = KeyButtonMask(rawValue: 0x0200)
    public static let button3 = KeyButtonMask(rawValue: 0x0400)
    public static let button4 = KeyButtonMask(rawValue: 0x0800)
    public static let button5 = KeyButtonMask(rawValue: 0x1000)
}

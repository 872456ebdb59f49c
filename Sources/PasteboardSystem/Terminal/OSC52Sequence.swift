/// OSC 52, xterm's control sequence for the terminal's clipboard: `ESC ] 52 ; c ; DATA BEL`
/// sets it (DATA in Base64), `ESC ] 52 ; c ; ? BEL` asks for it, and a terminal that allows it
/// answers `ESC ] 52 ; SELECTION ; DATA` ended by BEL or ST (`ESC \`). pb uses it where no
/// daemon reaches (`pb copy --osc52`, `pb paste --osc52`); pure, so the rules are tested alone.
public enum OSC52Sequence {
    /// Which of the terminal's selections: the clipboard (`c`) or the primary selection (`p`),
    /// pb's `general` and `primary` pasteboards.
    public enum Selection: Sendable, Equatable {
        case clipboard, primary

        /// The selection a pasteboard name stands for; nil for the names OSC 52 has none for.
        public init?(pasteboard name: String) {
            switch name {
            case "general": self = .clipboard
            case "primary": self = .primary
            default: return nil
            }
        }

        /// The letter the sequence names it by.
        var code: UInt8 { self == .clipboard ? UInt8(ascii: "c") : UInt8(ascii: "p") }
    }

    /// The bytes around the data of a sequence pb sends: `ESC ] 52 ; c ;` and BEL.
    public static let framingLength = 8

    /// The longest sequence sent (and answer read) unless the user raises it: 100,000 bytes,
    /// hence 74,994 bytes of text. It is hterm's limit (ChromeOS's terminal, and the `osc52`
    /// scripts' convention), the smallest among the terminals that take OSC 52; tmux 3.3a drops
    /// a sequence over 1 MiB, xterm, foot and kitty take far more.
    public static let defaultLimit = 100_000

    /// The limits a user may set: from 1 KiB (a line of text) to 64 MiB (more than a terminal
    /// should be asked to hold in its parser).
    public static let limitRange: ClosedRange<Int> = 1024...(64 << 20)

    /// The length of the sequence that sets `count` bytes.
    public static func length(ofTextCount count: Int) -> Int {
        framingLength + Base64.encodedLength(of: count)
    }

    /// The most bytes of text a sequence of at most `limit` bytes carries.
    public static func maximumTextCount(within limit: Int) -> Int {
        max(0, (limit - framingLength) / 4 * 3)
    }

    /// The sequence that sets `selection` to `text`, ended by BEL (which every terminal that
    /// takes OSC 52 accepts, and the 100,000-byte convention counts).
    public static func setting(_ selection: Selection, to text: some Collection<UInt8>) -> [UInt8] {
        var bytes = prefix(selection)
        Base64.encode(text, into: &bytes)
        bytes.append(bell)
        return bytes
    }

    /// The sequence that asks for `selection`'s content.
    public static func query(_ selection: Selection) -> [UInt8] {
        prefix(selection) + [UInt8(ascii: "?"), bell]
    }

    private static func prefix(_ selection: Selection) -> [UInt8] {
        [escape, UInt8(ascii: "]"), UInt8(ascii: "5"), UInt8(ascii: "2"), UInt8(ascii: ";"), selection.code, UInt8(ascii: ";")]
    }

    static let escape: UInt8 = 0x1b
    static let bell: UInt8 = 0x07
}

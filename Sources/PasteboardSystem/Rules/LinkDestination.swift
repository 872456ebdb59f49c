/// The machine a link reaches, as ssh takes it: `[USER@]HOST`, where HOST may be an alias of the
/// user's ssh configuration, a name or an address.
///
/// Checked before it is passed to ssh: a destination starting with `-` would be read as an
/// option (`-oProxyCommand=…` runs a command), and spaces or control characters have no place
/// in a host name; ssh is also given `--` before it.
public enum LinkDestination {
    /// Why `text` is not a destination, or nil when it is.
    public static func problem(_ text: String) -> String? {
        guard (1...255).contains(text.utf8.count) else { return "a link destination must be 1 to 255 bytes" }
        guard !text.hasPrefix("-") else { return "a link destination may not start with '-' ('\(text)')" }
        let allowed = text.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5a).contains(byte) || (0x61...0x7a).contains(byte)
                || Array("._-@:%+[]".utf8).contains(byte)
        }
        guard allowed else { return "a link destination is [USER@]HOST of letters, digits and . _ - @ : % + [ ], not '\(text)'" }
        guard text.split(separator: "@", omittingEmptySubsequences: false).allSatisfy({ !$0.isEmpty }), text.filter({ $0 == "@" }).count <= 1 else {
            return "a link destination is [USER@]HOST, not '\(text)'"
        }
        return nil
    }

    /// The file-name-safe form of a destination (for its status file): `@` and `:` become `_`.
    public static func fileName(_ text: String) -> String {
        String(text.map { "@:[]%+".contains($0) ? "_" : $0 })
    }
}

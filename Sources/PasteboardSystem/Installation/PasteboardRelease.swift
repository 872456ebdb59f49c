/// The release these binaries belong to: what `pb`, `gallery` and `pasteboardd` print for
/// `--version`, and what the daemon's name in `welcome` carries.
public enum PasteboardRelease {
    public static let version = "0.1.0"
}

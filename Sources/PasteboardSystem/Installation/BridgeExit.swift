/// How `pasteboard-bridge` and the daemon that starts it agree on why the bridge ended.
///
/// The daemon starts the bridge again whenever it ends, whatever its status, except this one:
/// the environment (which the daemon never changes) names no display the bridge may use, so
/// starting it again would only end the same way. systemd's unit says the same with
/// `RestartPreventExitStatus=`.
public enum BridgeExit {
    /// No display the bridge may use is named (none, or only a forwarded X display without
    /// `--allow-remote-display`): EX_CONFIG of sysexits.h.
    public static let noUsableDisplay: Int32 = 78
}

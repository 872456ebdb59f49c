#if canImport(Glibc)
import Glibc
#endif

/// A headless sway for the desktop bridge's Wayland row, with its own runtime directory and
/// socket, so the bench never touches the desktop it runs on.
///
/// sway refuses to run as root: as root the bench runs it as `nobody` (setpriv), with a
/// runtime directory and home that user owns and a config it can read. Root clients (wl-copy,
/// wl-paste, the daemon's bridge) reach its socket by the absolute path in `socketPath`.
struct WaylandServer {
    /// The compositor's socket, an absolute path (what `WAYLAND_DISPLAY` names).
    let socketPath: String
    let directory: String
    private let process: Spawned

    /// Starts sway, or returns the reason when it, setpriv (as root) or wl-clipboard is missing
    /// or it will not start.
    static func start() -> Result<WaylandServer, BenchError> {
        guard let sway = Spawned.find("sway") else { return .failure(BenchError("sway not installed")) }
        for tool in ["wl-copy", "wl-paste"] where Spawned.find(tool) == nil {
            return .failure(BenchError("\(tool) not installed (wl-clipboard)"))
        }
        var template = Array("/tmp/pasteboard-bench-sway-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { return .failure(BenchError("cannot make a directory for sway")) }
        let directory = String(cString: made)
        chmod(directory, 0o755)
        let runtime = directory + "/run", home = directory + "/home", config = directory + "/config"
        mkdir(runtime, 0o700)
        mkdir(home, 0o755)
        guard let file = fopen(config, "w") else { return .failure(BenchError("cannot write sway's config")) }
        fputs("xwayland disable\n", file)
        fclose(file)
        chmod(config, 0o644)
        var command = [sway, "-c", config]
        if getuid() == 0 {
            guard let setpriv = Spawned.find("setpriv") else { return .failure(BenchError("setpriv not installed (sway will not run as root)")) }
            guard let nobody = getpwnam("nobody") else { return .failure(BenchError("no user nobody to run sway as")) }
            let (uid, gid) = (nobody.pointee.pw_uid, nobody.pointee.pw_gid)
            chown(runtime, uid, gid)
            chown(home, uid, gid)
            command = [setpriv, "--reuid=\(uid)", "--regid=\(gid)", "--clear-groups"] + command
        }
        let environment = ChildEnvironment(setting: [
            "HOME": home, "XDG_RUNTIME_DIR": runtime,
            "WLR_BACKENDS": "headless", "WLR_RENDERER": "pixman", "WLR_LIBINPUT_NO_DEVICES": "1",
        ], removing: ["DISPLAY", "WAYLAND_DISPLAY", "WAYLAND_SOCKET"])
        let process: Spawned
        do {
            process = try Spawned.start(command, output: directory + "/sway.log", environment: environment)
        } catch {
            return .failure(BenchError("sway did not start: \(error)"))
        }
        for _ in 0..<1500 {
            if let socket = socket(in: runtime) {
                return .success(WaylandServer(socketPath: runtime + "/" + socket, directory: directory, process: process))
            }
            usleep(10_000)
        }
        process.stop()
        _ = system("rm -rf '\(directory)'")
        return .failure(BenchError("sway did not open its socket in 15 s"))
    }

    /// Stops sway and removes its directory.
    func stop() {
        process.stop()
        _ = system("rm -rf '\(directory)'")
    }

    /// The name of the `wayland-N` socket in `runtime`, once sway made it.
    private static func socket(in runtime: String) -> String? {
        guard let directory = opendir(runtime) else { return nil }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasPrefix("wayland-"), !name.hasSuffix(".lock") { return name }
        }
        return nil
    }
}

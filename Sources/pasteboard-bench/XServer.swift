#if canImport(Glibc)
import Glibc
#endif

/// A virtual X server (Xvfb) for the xsel and xclip baselines and the desktop bridge's rows, on
/// a display number of its own, with no access control beyond the local socket. Stopped at the
/// end of the run.
struct XServer {
    let display: String
    private let process: Spawned

    /// Starts Xvfb, or returns the reason when it or one of `tools` (the baseline's programs)
    /// is missing or it will not start.
    static func start(requiring tools: [String] = ["xsel"]) -> Result<XServer, BenchError> {
        guard let xvfb = Spawned.find("Xvfb") else { return .failure(BenchError("Xvfb not installed")) }
        for tool in tools where Spawned.find(tool) == nil { return .failure(BenchError("\(tool) not installed")) }
        for number in 90..<110 {
            removeStaleFiles(of: number)
            guard access("/tmp/.X11-unix/X\(number)", F_OK) != 0 else { continue }
            let display = ":\(number)"
            guard let process = try? Spawned.start([xvfb, display, "-nolisten", "tcp", "-screen", "0", "640x480x24"]) else { continue }
            for _ in 0..<300 {
                if access("/tmp/.X11-unix/X\(number)", F_OK) == 0 {
                    usleep(100_000)
                    return .success(XServer(display: display, process: process))
                }
                usleep(10_000)
            }
            process.stop()
        }
        return .failure(BenchError("Xvfb did not start"))
    }

    func stop() {
        process.stop()
    }

    /// Removes display `number`'s lock file and socket when no X server holds them: an X
    /// server that did not end cleanly leaves them behind, and once its pid is reused by
    /// another process, a new Xvfb takes them for a running server's and refuses the display.
    private static func removeStaleFiles(of number: Int) {
        let lock = "/tmp/.X\(number)-lock"
        if let pid = firstLine(of: lock).flatMap({ Int32($0.filter { $0 != " " }) }) {
            let command = firstLine(of: "/proc/\(pid)/comm")
            guard command != "Xvfb" && command != "Xorg" else { return }
        } else if access(lock, F_OK) == 0 {
            return  // a lock that cannot be read: not ours to judge
        }
        unlink(lock)
        unlink("/tmp/.X11-unix/X\(number)")
    }

    /// The first line of the file at `path`, without its newline; nil when it cannot be read.
    private static func firstLine(of path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 64)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 && $0 != 10 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

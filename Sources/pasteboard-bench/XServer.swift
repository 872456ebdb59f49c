#if canImport(Glibc)
import Glibc
#endif

/// A virtual X server (Xvfb) for the xsel baselines, on a display number of its own, with no
/// access control beyond the local socket. Stopped at the end of the run.
struct XServer {
    let display: String
    private let process: Spawned

    /// Starts Xvfb, or returns nil (with the reason) when it or xsel is missing or will not start.
    static func start() -> Result<XServer, BenchError> {
        guard let xvfb = Spawned.find("Xvfb") else { return .failure(BenchError("Xvfb not installed")) }
        guard Spawned.find("xsel") != nil else { return .failure(BenchError("xsel not installed")) }
        for number in 90..<110 where access("/tmp/.X11-unix/X\(number)", F_OK) != 0 {
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
}

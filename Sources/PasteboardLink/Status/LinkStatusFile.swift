#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
public import PasteboardSystem

/// Where each link of the daemon at a socket path keeps its status and its lock:
/// `<socket>.link.<destination>` (JSON, mode 0600) and that path with `.lock`, in the socket's
/// directory (the user's own, 0700). The end ssh started writes `<socket>.link.served-<pid>`.
/// The `pb link` process holds the lock while it runs, so a second `pb link` of the same
/// destination refuses to start instead of linking twice, and `pb link --status` leaves out a
/// status whose process is gone.
public enum LinkStatusFile {
    /// The files of the link to `destination` (or of a served link: `served-<pid>`).
    public static func file(socketPath: String, name: String) -> StatusFile<LinkStatus> {
        StatusFile(path: socketPath + ".link." + LinkDestination.fileName(name), kind: "a link status")
    }

    /// The status files of every link of the daemon at `socketPath` whose process runs, by name.
    public static func running(socketPath: String) -> [(name: String, file: StatusFile<LinkStatus>)] {
        let slash = socketPath.lastIndex(of: "/").map { socketPath.index(after: $0) } ?? socketPath.startIndex
        let directory = slash == socketPath.startIndex ? "." : String(socketPath[..<socketPath.index(before: slash)])
        let prefix = String(socketPath[slash...]) + ".link."
        guard let handle = opendir(directory) else { return [] }
        defer { closedir(handle) }
        var found: [(String, StatusFile<LinkStatus>)] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name.hasPrefix(prefix), !name.hasSuffix(".lock"), !name.hasSuffix(".tmp") else { continue }
            let linkName = String(name.dropFirst(prefix.count))
            let file = StatusFile<LinkStatus>(path: directory + "/" + name, kind: "a link status")
            if file.isHeld() {
                found.append((linkName, file))
            } else {
                // Its process is gone: the status says nothing any more.
                unlink(file.path)
                unlink(file.lockPath)
            }
        }
        return found.sorted { $0.0 < $1.0 }
    }
}

import Glibc

/// An exclusive advisory `flock` on a lock file, held for the duration of a closure.
enum FileLock {
    /// Creates the lock file (0644) if missing, blocks until it holds an exclusive lock, runs `body`,
    /// and releases the lock however `body` ends. The lock file is never deleted, as that would race.
    static func withExclusiveLock<R>(at path: String, _ body: () throws -> R) throws -> R {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw GalleryError.unwritable(path: path, reason: POSIX.errorMessage()) }
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else { throw GalleryError.unwritable(path: path, reason: POSIX.errorMessage()) }
        }
        defer { flock(fd, LOCK_UN) }
        return try body()
    }
}

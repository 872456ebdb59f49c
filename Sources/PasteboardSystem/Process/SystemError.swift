#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The words of a failed system call's `errno`, for the error messages every program prints
/// ("permission denied" reads better than "errno 13"): one place, so every module says it the
/// same way and none repeats the C conversion.
public enum SystemError {
    /// `strerror(number)`: "No such file or directory" for ENOENT.
    public static func describe(_ number: Int32) -> String {
        String(cString: strerror(number))
    }

    /// The words of the calling thread's current `errno`; read it before any other call that
    /// may change it.
    public static var current: String { describe(errno) }
}

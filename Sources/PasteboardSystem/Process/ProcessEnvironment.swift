#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// This process's environment, read without Foundation (pb links none): the socket's location,
/// DISPLAY and WAYLAND_DISPLAY, and the XDG directories all come from it.
public enum ProcessEnvironment {
    /// Every variable, as a dictionary (for the lookups that take one, and for child processes).
    public static func current() -> [String: String] {
        var result: [String: String] = [:]
        var pointer = environ
        while let entry = pointer.pointee {
            let text = String(cString: entry)
            if let equals = text.firstIndex(of: "=") {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            pointer += 1
        }
        return result
    }

    /// The value of the variable `name`; nil when it is not set. Cheaper than `current()` for
    /// one variable: no dictionary of all of them.
    public static func value(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}

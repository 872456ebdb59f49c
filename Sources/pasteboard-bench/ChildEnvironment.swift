#if canImport(Glibc)
import Glibc
#endif

/// This process's environment with some variables set otherwise, made once for the programs
/// the bench starts with it: built before the timing starts, so a timed run of ours pays no
/// more to start than its baseline does.
final class ChildEnvironment {
    /// `NAME=value` strings, ending in nil, as `posix_spawn` takes them.
    let variables: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
    private let count: Int

    /// This process's environment without the variables named in `removed`, with `settings`
    /// replacing or adding variables.
    init(setting settings: [String: String], removing removed: Set<String> = []) {
        var variables: [UnsafeMutablePointer<CChar>?] = []
        var entry = environ
        while let variable = entry.pointee {
            let name = String(String(cString: variable).prefix { $0 != "=" })
            if settings[name] == nil, !removed.contains(name) { variables.append(strdup(variable)) }
            entry += 1
        }
        for (name, value) in settings { variables.append(strdup("\(name)=\(value)")) }
        variables.append(nil)
        count = variables.count
        self.variables = .allocate(capacity: count)
        self.variables.initialize(from: variables, count: count)
    }

    deinit {
        for index in 0..<count { free(variables[index]) }
        variables.deallocate()
    }
}

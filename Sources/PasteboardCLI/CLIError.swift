/// A failure pb reports itself, with its exit code.
///
/// It describes itself as its message, so wherever it is interpolated (a drop's failure sent to
/// the dragging process, a wrapped error) a person reads the message, not a Swift value dump.
public struct CLIError: Error, CustomStringConvertible {
    public let message: String
    public let status: Int32

    /// A runtime failure (exit 1).
    public static func failure(_ message: String) -> CLIError { CLIError(message: message, status: ExitStatus.failure) }
    /// Bad command-line input (exit 2).
    public static func usage(_ message: String) -> CLIError { CLIError(message: message, status: ExitStatus.usage) }
    /// Exit 1 with nothing printed (the reason was already shown, or there is none to show).
    public static let quietFailure = CLIError(message: "", status: ExitStatus.failure)

    public var description: String { message }
}

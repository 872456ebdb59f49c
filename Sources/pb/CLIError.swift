/// A failure pb reports itself, with its exit code.
struct CLIError: Error {
    let message: String
    let status: Int32

    /// A runtime failure (exit 1).
    static func failure(_ message: String) -> CLIError { CLIError(message: message, status: ExitStatus.failure) }
    /// Bad command-line input (exit 2).
    static func usage(_ message: String) -> CLIError { CLIError(message: message, status: ExitStatus.usage) }
    /// Exit 1 with nothing printed (the reason was already shown, or there is none to show).
    static let quietFailure = CLIError(message: "", status: ExitStatus.failure)
}

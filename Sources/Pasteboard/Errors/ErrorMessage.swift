/// An error as one line for a person: what a message that crosses to another process (a drop's
/// failure the dragging user reads, a load handler's failure the pasting user reads) or reaches
/// a terminal says about it.
///
/// String interpolation of an error that does not describe itself prints a Swift value dump
/// (`SomeError(message: "…", status: 1)`), which means nothing to the person reading it, so
/// every such message goes through here.
package enum ErrorMessage {
    /// The error's own description (every error of this package has one, written for a
    /// person); "cancelled" for a `CancellationError`; for an error of another module that does
    /// not describe itself, its type's name, not a dump of its fields.
    package static func text(for error: any Error) -> String {
        switch error {
        case is CancellationError:
            "cancelled"
        case let error as any CustomStringConvertible:
            error.description
        default:
            "\(type(of: error))"
        }
    }
}

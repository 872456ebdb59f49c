#if canImport(Glibc)
import Glibc
#endif
import Pasteboard
import PasteboardCLI
import PasteboardProtocol
import PasteboardTypes

/// How `pb copy --lazy` serves its files: each load reads the file from disk as it streams;
/// with --verbose each load is reported on stderr; with --paste-once the first delivery is awaited.
final class LazyServing: Sendable {
    private let verbose: Bool
    private let pasteOnce: Bool
    private let deliveries = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))

    init(verbose: Bool, pasteOnce: Bool) {
        self.verbose = verbose
        self.pasteOnce = pasteOnce
    }

    /// Adds `path` to `item` as a promised representation of `type`.
    func register(_ path: String, type: TypeIdentifier, size: Int, in item: inout ItemProvider) {
        let verbose = verbose
        item.registerDataRepresentation(for: type, size: size, observer: { event in
            if verbose { Output.printError("pb: \(type): \(Self.describe(event))") }
            if case .delivered = event { self.markDelivered() }
        }, loadHandler: { writer in
            if verbose {
                let who = writer.request.capture == true
                    ? "the daemon (capture)" : "pid \(writer.request.destinationPID.map(String.init) ?? "?")"
                Output.printError("pb: \(type): loading for \(who)\(writer.isHandedOff ? " through a handed-off socket" : "")")
            }
            // Still a regular file: one replaced by a FIFO since the copy would hang the load.
            close(try Input.openRegularFile(path))
            try await writer.writeFile(at: path)
        })
    }

    /// Returns after the first load was delivered completely (or when the task is cancelled).
    func firstDelivery() async {
        for await _ in deliveries.stream { return }
    }

    private func markDelivered() {
        deliveries.continuation.yield()
    }

    private static func describe(_ event: SourceEvent) -> String {
        switch event {
        case .progress(let progress): "progress \(progress.completed) \(progress.total.map(String.init) ?? "?")"
        case .delivered: "delivered"
        case .cancelled: "cancelled"
        case .failed(let message): "failed: \(message)"
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
internal import NIOCore
internal import PasteboardProtocol
import PasteboardSystem
import PasteboardTypes

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Loads representations of items on a pasteboard or in a dropped drag session: the one
/// implementation behind `Pasteboard`'s and `PerformedDrop`'s load methods.
struct RepresentationLoader: Sendable {
    /// Where the items are.
    typealias Target = ReadExchange.Target

    let connection: PasteboardConnection
    let target: Target

    /// Loads item `item`'s representation best matching `accepting` (UTIs or MIME types, most
    /// preferred first; empty for the item's first representation).
    ///
    /// `header` is called once with the daemon's choice, then `chunk` with the bytes in order;
    /// credit is returned to the daemon as each chunk is consumed, so memory stays bounded.
    /// `progress` hears the daemon's progress reports (about every 1% or 100 ms, and at the end).
    /// With `openInPlace`, a file representation the source allows to be opened in place comes
    /// as a path in the header (`header.path`) and no bytes.
    /// Cancelling the task cancels the load at the daemon, which cancels the source's handler.
    ///
    /// A live source's bytes may be handed off (see `HandoffChannel`): they then come through a
    /// socket straight from the source, and go to `chunk` all the same.
    @discardableResult
    nonisolated(nonsending) func load(
        item: Int = 0,
        accepting: [TypeIdentifier],
        openInPlace: Bool = false,
        progress: (LoadProgress) -> Void = { _ in },
        header: nonisolated(nonsending) (RepresentationHeader) async throws -> Void = { _ in },
        chunk: nonisolated(nonsending) (ByteBuffer) async throws -> Void
    ) async throws -> RepresentationHeader {
        let (id, frames) = connection.openRequest()
        defer { connection.closeRequest(id) }
        let request = ReadExchange.request(target, item: item, accept: accepting, openInPlace: openInPlace,
                                           asksHandoff: HandoffChannel.mayAsk(connection.welcome))
        try await connection.send(.read(request), on: id)
        var exchange = ReadExchange(window: connection.welcome.window)
        do {
            for try await frame in frames {
                switch try exchange.take(frame, handoff: connection.attachedHandoff) {
                case .attachHandoff:
                    connection.attachHandoff()
                case .representation(let value):
                    try await header(value)
                case .handedOff(let value, let channel):
                    try await header(value)
                    let transfer = HandoffStream(try channel.descriptor(for: id))
                    exchange.handedOff(try await transfer.drain(total: value.size, progress: progress, chunk: chunk))
                case .progress(let report):
                    progress(report)
                case .data(let bytes, let credit):
                    if let bytes { try await chunk(bytes) }
                    if let credit { try await connection.send(.credit(Credit(bytes: credit)), on: id) }
                case .finished(let bytes, let value):
                    if let bytes { try await chunk(bytes) }
                    return value
                case .ignored:
                    continue
                }
            }
        } catch let error as PasteboardError {
            if error.code == nil { connection.cancelInBackground(id) }
            throw error
        } catch let error as ProtocolError {
            connection.cancelInBackground(id)
            throw PasteboardError.daemon(error)
        } catch {
            connection.cancelInBackground(id)
            throw error
        }
        if Task.isCancelled {
            connection.cancelInBackground(id)
            throw CancellationError()
        }
        throw PasteboardError.connectionLost("the daemon closed the connection during the load")
    }

    /// `load(item:accepting:openInPlace:progress:header:chunk:)` in the library's public terms:
    /// what `Pasteboard` and `PerformedDrop` hand their streaming callers.
    @discardableResult
    nonisolated(nonsending) func loadChunks(
        item: Int, accepting: [TypeIdentifier], openInPlace: Bool = false,
        progress: (LoadProgress) -> Void,
        header: nonisolated(nonsending) (LoadedRepresentation) async throws -> Void,
        chunk: nonisolated(nonsending) (ByteChunk) async throws -> Void
    ) async throws -> LoadedRepresentation {
        LoadedRepresentation(try await load(
            item: item, accepting: accepting, openInPlace: openInPlace, progress: progress,
            header: { try await header(LoadedRepresentation($0)) }, chunk: { try await chunk(ByteChunk($0)) }
        ))
    }

    /// The most memory reserved ahead of a load's bytes on the strength of its declared size.
    static let reservationLimit = 16 << 20

    /// Loads a representation whole into memory; see `load(item:accepting:openInPlace:progress:header:chunk:)`.
    nonisolated(nonsending) func loadData(
        item: Int = 0, accepting: [TypeIdentifier], progress: (LoadProgress) -> Void = { _ in }
    ) async throws -> (header: RepresentationHeader, bytes: [UInt8]) {
        var bytes: [UInt8] = []
        let header = try await load(item: item, accepting: accepting, progress: progress, header: { header in
            // The size is what the source declared (a promise may claim up to Int.max): reserve
            // no more than a bound, and let what really arrives grow the rest.
            if let size = header.size, size > 0 { bytes.reserveCapacity(min(size, Self.reservationLimit)) }
        }, chunk: { chunk in
            bytes.append(contentsOf: chunk.readableBytesView)
        })
        return (header, bytes)
    }

    /// Loads a representation into a new temporary file in `directory` (default `$TMPDIR`, else
    /// `/tmp`), streaming it to disk. The file is deleted when the returned object goes away
    /// unless it was moved; a failed or cancelled load leaves no file behind. With `openInPlace`,
    /// a file the source allows to be opened in place is returned as is (`isOriginal`). The file
    /// is private (0600) while it loads, then gets the mode the umask gives (`NewFileMode`), so a
    /// caller that moves it into place needs no chmod of its own.
    nonisolated(nonsending) func loadFile(
        item: Int = 0, accepting: [TypeIdentifier], openInPlace: Bool = false,
        directory: String? = nil, progress: (LoadProgress) -> Void = { _ in }
    ) async throws -> LoadedFile {
        let directory = directory ?? ProcessEnvironment.value("TMPDIR").flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(directory)/pasteboard-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw PasteboardError.io("cannot create a temporary file in \(directory): \(SystemError.current)")
        }
        let path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var closed = false
        defer { if !closed { close(fd) } }
        do {
            let header = try await load(item: item, accepting: accepting, openInPlace: openInPlace, progress: progress) { chunk in
                try FileOutput.write(chunk, to: fd, path: path)
            }
            if let original = header.path {
                unlink(path)
                return LoadedFile(path: original, header: header, isOriginal: true)
            }
            // Private while the bytes arrived; complete, it is the caller's file like any other.
            fchmod(fd, NewFileMode.regularFile)
            closed = true
            guard close(fd) == 0 else { throw PasteboardError.io("cannot write \(path): \(SystemError.current)") }
            return LoadedFile(path: path, header: header, isOriginal: false)
        } catch {
            unlink(path)
            throw error
        }
    }

    /// Loads item `item` as a `T`: asks for the types `T` imports (in its order), then converts
    /// the representation the daemon chose with `T`'s first importer it conforms to.
    nonisolated(nonsending) func load<T: Transferable>(
        _ type: T.Type, item: Int = 0, progress: (LoadProgress) -> Void = { _ in }
    ) async throws -> (value: T, representation: LoadedRepresentation) {
        let accepted = T.importableContentTypes
        let (header, bytes) = try await loadData(item: item, accepting: accepted, progress: progress)
        let value = try await T.importing(
            .data(Data(bytes)), contentType: TypeIdentifier(rawValue: header.type), registry: connection.registry
        )
        return (value, LoadedRepresentation(header))
    }
}

/// Writes whole buffers to a file descriptor.
enum FileOutput {
    static func write(_ buffer: ByteBuffer, to fd: Int32, path: String) throws {
        try buffer.withUnsafeReadableBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw PasteboardError.io("cannot write \(path): \(SystemError.current)")
                }
                offset += written
            }
        }
    }
}

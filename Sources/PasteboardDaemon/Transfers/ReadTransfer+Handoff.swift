#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import NIOCore
import PasteboardProtocol
import PasteboardTypes

extension ReadTransfer {
    /// Runs a load from a live source as a hand-off when both sides can: the daemon makes a
    /// connected socket pair (`HandoffLink`), passes its sending end to the source (with a
    /// `produce` marked `handoff`) and its receiving end to the destination (before a
    /// `representation` marked `handoff`), and closes its own copies. The bytes then go from source to destination without passing through the daemon;
    /// the daemon waits for the source's `size` (the bytes it wrote) and END, and ends the read
    /// with the final `progress` and END.
    ///
    /// A destination whose read said `handoff` but whose socket is not attached yet is sent
    /// `attach`, and the hand-off waits up to a second for the socket.
    ///
    /// Returns false, having sent nothing to the destination but that `attach`, when hand-off
    /// is not possible (the destination did not ask, a side has no attached hand-off socket,
    /// the destination's did not come, a descriptor cannot be passed): the caller then streams
    /// the bytes through the daemon.
    func handOff(_ promise: StoredRepresentation.Promise, type: TypeIdentifier, declaredSize: Int?,
                 header: (Int?) async throws -> Void) async throws -> Bool {
        let source = promise.owner
        guard request.handoff == true, let sourceEnd = source.handoff, sourceEnd.isAttached,
              let destinationEnd = try await attachedDestination(), let link = try? HandoffLink()
        else { return false }
        defer { link.close() }
        let relay: Relay
        do {
            relay = try await source.produce(ProduceRequest(
                promise: promise.id, pasteboard: request.session == nil ? request.pasteboard : nil, session: request.session,
                item: request.item, type: type.rawValue, destinationPID: reader.pid, handoff: true
            ), descriptor: link.sourceEnd)
        } catch {
            return false  // streaming asks again, and reports why the source cannot answer
        }
        control.attach(relay)
        do {
            try destinationEnd.send(link.destinationEnd, for: id)
        } catch {
            await source.finish(relay, with: .error(ProtocolError(.cancelled, "the destination could not take its socket: \(error.message)")))
            return false
        }
        link.close()
        do {
            try await header(declaredSize)
            var written: Int?
            loop: while true {
                switch try await relay.next() {
                case .size(let bytes): written = bytes
                case .end: break loop
                case .data: throw ProtocolError(.sourceUnavailable, "\(source) sent data frames for a handed-off \(type)")
                }
            }
            guard let written else {
                throw ProtocolError(.sourceUnavailable, "\(source) ended a handed-off \(type) without saying how many bytes it wrote")
            }
            if let declaredSize, declaredSize != written {
                throw ProtocolError(.sourceUnavailable, "\(source) wrote \(written) bytes of \(type) after promising \(declaredSize)")
            }
            try Task.checkCancellation()
            try await writer.send(.progress(ProgressReport(completed: written, total: written)), on: id)
            await source.finish(relay, with: .ok(OK()))
            release()
            try await writer.sendData(ByteBuffer(), on: id, end: true)
            return true
        } catch {
            let reason = (error as? ProtocolError)?.message ?? "the destination went away"
            await source.finish(relay, with: .error(ProtocolError(.cancelled, "the load stopped: \(reason)")))
            throw error
        }
    }

    /// Hands a stored file to the destination as a descriptor, opened read-only, when it asked
    /// for hand-off of files (`handoffFile`) and the file is at least
    /// `SpoolPolicy.handoffMinimum`: it reads the bytes straight from the file (through the
    /// page cache, at the speed of `cat`), and the daemon sends only the header, the final
    /// `progress` and END. The descriptor is a snapshot: a copy that replaces this one, and the
    /// file's removal, do not change what the destination reads.
    ///
    /// The file is opened and checked as streaming opens it (`SpoolFile.openForReading`): one
    /// truncated, grown or replaced behind the daemon's back throws `source-unavailable`, as
    /// streaming it would, rather than reach the destination under a header giving the size
    /// stored.
    ///
    /// Returns false, having sent nothing but perhaps `attach`, when the hand-off is not
    /// possible; the caller then streams the file through the daemon.
    func handOffStored(_ file: SpoolFile, header: (Int?) async throws -> Void) async throws -> Bool {
        guard request.handoff == true, request.handoffFile == true, file.size >= SpoolPolicy.handoffMinimum,
              let destinationEnd = try await attachedDestination()
        else { return false }
        let descriptor = try file.openForReading()
        defer { close(descriptor) }
        do {
            try destinationEnd.send(descriptor, for: id)
        } catch {
            return false
        }
        try await header(file.size)
        try Task.checkCancellation()
        try await writer.send(.progress(ProgressReport(completed: file.size, total: file.size)), on: id)
        release()
        try await writer.sendData(ByteBuffer(), on: id, end: true)
        return true
    }

    /// The destination's hand-off socket, attached: a destination attaches it only when asked
    /// (`attach`), since most loads (a small stored item, a client on another machine) never
    /// need it and a short-lived `pb paste` saves the second connection; it has a second to do
    /// so. Nil when it has none or it did not come.
    private func attachedDestination() async throws -> HandoffEndpoint? {
        guard let destinationEnd = reader.handoff else { return nil }
        if !destinationEnd.isAttached { try await writer.send(.attach, on: id) }
        return await destinationEnd.waitUntilAttached(upTo: .seconds(1)) ? destinationEnd : nil
    }
}

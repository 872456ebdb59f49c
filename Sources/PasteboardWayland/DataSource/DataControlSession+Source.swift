#if canImport(Glibc)
import Glibc
#endif

/// One of our data sources as the session tracks it: what it offers, for which selection.
struct SourceRecord: Sendable {
    let kind: SelectionKind
    let mimeTypes: [String]
}

/// The source side of data control: we own a selection by creating a data source, offering
/// MIME types on it and setting it as the device's selection; the compositor then forwards each
/// reader's `receive` to us as `send(mime_type, fd)`, and tells us `cancelled` when another
/// selection replaced ours. Still pure: requests go to ``outgoing``, what the compositor asked
/// goes to ``sourceEvents``; the only system call is closing descriptors we refuse.
extension DataControlSession {
    /// Creates a source offering `mimeTypes` (in that order; duplicates dropped) and makes it the
    /// selection of `kind`: `create_data_source`, one `offer` per type, then `set_selection` or
    /// `set_primary_selection`, all queued in ``outgoing`` in that order (the protocol forbids
    /// offering after the source is set). Returns the source's object id, which the events in
    /// ``sourceEvents`` name.
    ///
    /// Every type is checked here, before anything is queued, so a bad one is a clear error and
    /// never a message the encoder refuses half-way through the set.
    public mutating func createSource(offering mimeTypes: [String], for kind: SelectionKind) throws(WaylandError) -> UInt32 {
        guard phase != .finished else { throw .deviceFinished }
        guard let p = dataControl, deviceID != 0 else { throw .notReady }
        if kind == .primary, !hasPrimarySelection { throw .primarySelectionUnsupported }
        var unique: [String] = []
        for mimeType in mimeTypes where !unique.contains(mimeType) {
            guard !mimeType.isEmpty, mimeType.utf8.count <= SourceLimits.maxMIMETypeLength, !mimeType.utf8.contains(0) else {
                throw .invalidMIMEType(mimeType)
            }
            unique.append(mimeType)
        }
        guard !unique.isEmpty else { throw .noMIMETypes }
        guard unique.count <= SourceLimits.maxMIMETypes else { throw .invalidMIMEType(unique[SourceLimits.maxMIMETypes]) }

        let source = try newObject(.dataControlSource(p))
        outgoing.append(WireMessage(objectID: managerID, opcode: p.opcodes.createDataSource, arguments: [.newID(source)]))
        for mimeType in unique {
            outgoing.append(WireMessage(objectID: source, opcode: p.opcodes.sourceOffer, arguments: [.string(mimeType)]))
        }
        let set = kind == .clipboard ? p.opcodes.setSelection : p.opcodes.setPrimarySelection
        outgoing.append(WireMessage(objectID: deviceID, opcode: set, arguments: [.object(source)]))
        sources[source] = SourceRecord(kind: kind, mimeTypes: unique)
        return source
    }

    /// The MIME types a live source offers (nil once cancelled or destroyed).
    public func sourceMIMETypes(_ source: UInt32) -> [String]? {
        sources[source]?.mimeTypes
    }

    /// Destroys a live source of ours (we let go of the selection: the compositor clears it if
    /// the source was still current). False when it was already cancelled or destroyed. Its id
    /// is freed by the compositor's `delete_id`; sends in flight until then are refused.
    @discardableResult
    public mutating func destroySource(_ source: UInt32) -> Bool {
        guard sources.removeValue(forKey: source) != nil, let p = dataControl else { return false }
        outgoing.append(WireMessage(objectID: source, opcode: p.opcodes.sourceDestroy))
        return true
    }

    /// Clears the selection of `kind` (`set_selection` with no source), whoever owns it.
    public mutating func clearSelection(_ kind: SelectionKind) throws(WaylandError) {
        guard phase != .finished else { throw .deviceFinished }
        guard let p = dataControl, deviceID != 0 else { throw .notReady }
        if kind == .primary, !hasPrimarySelection { throw .primarySelectionUnsupported }
        let set = kind == .clipboard ? p.opcodes.setSelection : p.opcodes.setPrimarySelection
        outgoing.append(WireMessage(objectID: deviceID, opcode: set, arguments: [.object(0)]))
    }

    /// A source's event. `send` hands its descriptor on only for a live source that offered the
    /// type; any other is closed here without a byte written (the reader gets an empty read at
    /// once), so no descriptor from the compositor is ever left open. `cancelled` destroys the
    /// source, as the protocol asks.
    mutating func handleSource(_ event: WireMessage, _ p: DataControlProtocol) throws(WaylandError) {
        let source = event.objectID
        switch event.opcode {
        case p.opcodes.sendEvent:
            guard event.arguments.count == 2, case .fd(let descriptor) = event.arguments[1] else {
                throw .unexpectedEvent(objectID: source, opcode: event.opcode)
            }
            guard case .string(let mimeType?) = event.arguments[0] else {
                close(descriptor)
                throw .unexpectedEvent(objectID: source, opcode: event.opcode)
            }
            if let record = sources[source], record.mimeTypes.contains(mimeType) {
                sourceEvents.append(.send(source: source, mimeType: mimeType, descriptor: descriptor))
            } else {
                close(descriptor)
                sourceEvents.append(.sendRefused(source: source, mimeType: mimeType))
            }
        case p.opcodes.cancelledEvent:
            // Already destroyed by us (the request crossed the event): nothing more to do.
            guard sources.removeValue(forKey: source) != nil else { return }
            outgoing.append(WireMessage(objectID: source, opcode: p.opcodes.sourceDestroy))
            sourceEvents.append(.cancelled(source: source))
        default:
            throw .unexpectedEvent(objectID: source, opcode: event.opcode)
        }
    }
}

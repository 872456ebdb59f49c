import Pasteboard

/// The bytes of one type a desktop target asked of a drag session shown on the desktop
/// (X11's XdndSelection conversion, Wayland's `wl_data_source.send`), streamed from the
/// session's drop: each of the type's items' representation in turn, a list's lines each ending
/// with CRLF. Shared by the X11 and Wayland handles, so both serve the same bytes.
enum DesktopDragData {
    /// Streams `name` of `plan` from `drop`: the daemon's chunks as they come when no conversion
    /// applies (`chunk`, no copy), else the converted bytes (`bytes`).
    static func stream(
        _ name: String, plan: DesktopDragPlan, drop: DesktopDropState,
        chunk: (ByteChunk) async throws -> Void, bytes: ([UInt8]) async throws -> Void
    ) async throws {
        guard let target = plan.target(named: name) else { throw DesktopExportError.notOffered(target: name) }
        let performed = try await drop.performed()
        drop.noteServed()
        let identity = target.conversion == .none
        for item in target.items {
            var encoder = ExportEncoder(target.conversion)
            var last: UInt8?
            do {
                try await performed.load(item: item, accepting: [target.type], chunk: { piece in
                    if identity {
                        if let byte = piece.last { last = byte }
                        try await chunk(piece)
                    } else {
                        let encoded = encoder.encode(piece)
                        if let byte = encoded.last { last = byte }
                        if !encoded.isEmpty { try await bytes(encoded) }
                    }
                })
            } catch let error as PasteboardError {
                throw DesktopExportError.loadFailed(target: name, code: error.code?.rawValue, message: error.description)
            }
            let tail = identity ? [] : encoder.finish()
            if let byte = tail.last { last = byte }
            if !tail.isEmpty { try await bytes(tail) }
            if target.isLineList, last != 0x0a { try await bytes(Array("\r\n".utf8)) }
        }
    }
}

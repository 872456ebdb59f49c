import PasteboardWayland

/// The Wayland bridge's data-control state machine (`DataControlSession`) driven by a scripted
/// compositor that misbehaves as the input says: after a well-formed set-up (a seat, the wlr
/// manager at version 2, a first text offer), each group of input bytes becomes one event to an
/// object the session may know (the display, the registry, its callbacks and device, offers
/// the compositor made), with arguments of the signature the session gives that object, made
/// from the input (strings from a small vocabulary or raw bytes, ids near the live ones).
///
/// Invariants: handling never traps, whatever it refuses; no offer holds more MIME types than
/// `SelectionOffer.maximumMIMETypes`, nor one longer than `maximumMIMETypeLength`; every
/// request the session queues encodes.
enum WaylandSessionFuzzing {
    private static let offerBase: UInt32 = 0xff00_0000

    /// Strings a compositor might send, besides raw bytes.
    private static let vocabulary = [
        "wl_seat", "zwlr_data_control_manager_v1", "ext_data_control_manager_v1", "text/plain", "text/plain;charset=utf-8",
        "UTF8_STRING", "image/png", "x-kde-passwordManagerHint", "application/x-pasteboard-bridge", "seat0", "",
    ]

    static func run(_ input: UnsafeRawBufferPointer) -> String {
        guard var session = try? DataControlSession() else { return "no session" }
        func feed(_ objectID: UInt32, _ opcode: UInt16, _ arguments: [WireArgument]) throws(WaylandError) {
            _ = try session.handle(WireMessage(objectID: objectID, opcode: opcode, arguments: arguments))
            check(session)
        }
        // The set-up every run starts from (as DataControlSessionTests' `ready(.wlr)`).
        do throws(WaylandError) {
            try feed(2, 0, [.uint(1), .string("wl_seat"), .uint(8)])
            try feed(2, 0, [.uint(2), .string("zwlr_data_control_manager_v1"), .uint(2)])
            try feed(3, 0, [.uint(1)])
            try feed(6, 0, [.newID(offerBase)])
            try feed(offerBase, 0, [.string("text/plain")])
            try feed(6, 1, [.object(offerBase)])
            try feed(6, 3, [.object(0)])
            try feed(7, 0, [.uint(0)])
        } catch {
            invariantViolated(.waylandSession, "the well-formed set-up was refused: \(error)")
        }
        var bytes = Array(input)[...]
        var handled = 0
        while bytes.count >= 2 {
            let target = bytes.removeFirst(), opcodeByte = bytes.removeFirst()
            let objectID: UInt32 = target & 0x80 != 0 ? offerBase + UInt32(target & 0x0f) : UInt32(target & 0x0f)
            let opcode = UInt16(opcodeByte % 8)
            guard let encoded = try? WireEncoder.encode(WireMessage(objectID: objectID, opcode: opcode)),
                  let header = try? WireHeader.read(from: encoded),
                  let signature = try? session.signature(for: header) else { continue }
            var arguments: [WireArgument] = []
            for type in signature { arguments.append(argument(type, from: &bytes)) }
            // Many offer events at once: a compositor offering a type list without end.
            let repeats = objectID >= offerBase && opcode == 0 ? Int(bytes.popFirst() ?? 0) * 16 + 1 : 1
            do throws(WaylandError) {
                for _ in 0..<repeats { try feed(objectID, opcode, arguments) }
                handled += 1
            } catch {
                return "\(handled) events, then refused: \(error)"
            }
            for request in session.outgoing where (try? WireEncoder.encode(request)) == nil {
                invariantViolated(.waylandSession, "a queued request does not encode: \(request)")
            }
            session.outgoing = []
            session.sourceEvents = []
        }
        return "\(handled) events handled, phase \(session.phase)"
    }

    private static func argument(_ type: WireArgumentType, from bytes: inout ArraySlice<UInt8>) -> WireArgument {
        let byte = bytes.popFirst() ?? 0
        switch type {
        case .int: return .int(Int32(Int8(bitPattern: byte)))
        case .uint: return .uint(UInt32(byte))
        case .fixed: return .fixed(WireFixed(rawValue: Int32(byte)))
        case .string:
            if byte & 0x80 == 0 { return .string(vocabulary[Int(byte) % vocabulary.count]) }
            let count = min(Int(byte & 0x7f) * 64, 8192)
            let text = String(repeating: Character(UnicodeScalar(UInt8(0x61) + byte % 26)), count: count)
            return .string(text)
        case .object: return .object(byte & 0x80 != 0 ? offerBase + UInt32(byte & 0x0f) : UInt32(byte & 0x0f))
        case .newID: return .newID(offerBase + UInt32(byte & 0x0f))
        case .untypedNewID: return .untypedNewID(interface: "wl_seat", version: 1, id: UInt32(byte))
        case .array: return .array(Array(bytes.prefix(Int(byte % 16))))
        case .fd: return .fd(-1)
        }
    }

    private static func check(_ session: DataControlSession) {
        for (kind, offer) in session.selections {
            if offer.mimeTypes.count > SelectionOffer.maximumMIMETypes {
                invariantViolated(.waylandSession, "the \(kind) offer holds \(offer.mimeTypes.count) MIME types")
            }
            if let long = offer.mimeTypes.first(where: { $0.utf8.count > SelectionOffer.maximumMIMETypeLength }) {
                invariantViolated(.waylandSession, "the \(kind) offer holds a MIME type of \(long.utf8.count) bytes")
            }
        }
    }
}

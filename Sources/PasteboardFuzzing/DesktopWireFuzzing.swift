import PasteboardWayland
import PasteboardX11

/// The desktop bridge's wire decoders: what an X server or a Wayland compositor sends is as
/// untrusted as a pasteboard client's frames (the display may be another user's, or broken).
///
/// `x11`: the first byte picks a decoder (the setup reply, an event, an error, the replies
/// selections and the drag's windows use, an Xauthority file); the rest is its input. They may refuse anything; they
/// must not trap, a decoded event that can be encoded (a SelectionNotify, an XDND message in a
/// ClientMessage) decodes to itself, and Xauthority entries
/// never claim more of the file than it has.
///
/// `wayland`: the first byte picks an event signature of the interfaces the bridge binds, the
/// second where the stream is split between two reads; the rest is a stream of messages. Each
/// frame the reader cuts is decoded; a decoded message re-encodes to bytes that decode to it again.
enum DesktopWireFuzzing {
    static func runX11(_ input: UnsafeRawBufferPointer) -> String {
        guard let selector = input.first else { return "empty" }
        let bytes = Array(input.dropFirst())
        switch selector % 5 {
        case 0:
            let reply = try? ConnectionSetup.decodeReply(bytes)
            _ = try? ConnectionSetup.additionalBytes(header: Array(bytes.prefix(8)))
            return "setup reply: \(reply.map { "\($0)".prefix(60) } ?? "refused")"
        case 1:
            guard bytes.count >= 32 else { return "event: short" }
            let first = bytes.count > 32 ? bytes[32] : nil
            guard let event = try? X11Event.decode(bytes[0..<32], xfixesFirstEvent: first) else { return "event: refused" }
            if case .selectionNotify(let notify) = event {
                guard case .selectionNotify(let again)? = try? X11Event.decode(notify.encoded[...]), again == notify else {
                    invariantViolated(.x11, "a SelectionNotify does not survive encoding: \(notify)")
                }
            }
            if case let .clientMessage(message) = event, let summary = runXdnd(message) { return summary }
            return "event: \(event)".prefix(80).description
        case 2:
            guard bytes.count >= 32 else { return "error: short" }
            return (try? X11ProtocolError.decode(bytes[0..<32])).map { "error: \($0)" } ?? "error: refused"
        case 3:
            let results = [
                (try? X11Reply.internAtom(bytes)) != nil, (try? X11Reply.getAtomName(bytes)) != nil,
                (try? X11Reply.getSelectionOwner(bytes)) != nil, (try? X11Reply.queryExtension(bytes)) != nil,
                (try? X11Reply.xfixesQueryVersion(bytes)) != nil, (try? X11Reply.getProperty(bytes)) != nil,
                (try? X11Reply.queryTree(bytes)) != nil, (try? X11Reply.translateCoordinates(bytes)) != nil,
                (try? X11Reply.queryPointer(bytes)) != nil, (try? X11Reply.grabStatus(bytes)) != nil,
                (try? X11Reply.bigRequestsEnable(bytes)).map { units in
                    // What the connection does with it: checked against the core maximum, never trapping.
                    _ = try? X11Connection.bigRequestBytes(units: units, coreUnits: 65535)
                } != nil,
            ]
            return "replies accepted: \(results)"
        default:
            guard let entries = try? Xauthority.parse(bytes) else { return "xauthority: refused" }
            // Each entry has ten bytes of family and lengths; its address and data are raw bytes of
            // the file (number and name are text, decoded with replacement characters, so not counted).
            let used = entries.reduce(0) { $0 + 10 + $1.address.count + $1.data.count }
            if used > bytes.count {
                invariantViolated(.x11, "Xauthority entries take \(used) bytes of a \(bytes.count)-byte file")
            }
            return "xauthority: \(entries.count) entries"
        }
    }

    /// The XDND atoms of the `x11` target's inputs: XdndAware is 0x100, then `XdndAtoms.names`' order.
    static let xdndAtoms: XdndAtoms? = try? XdndAtoms(interned: (0x100...0x10e).map { Atom($0) })

    /// A ClientMessage an XDND peer could send: decoded as one of XDND's messages, which may be
    /// refused; one that decodes re-encodes to bytes that decode to it again (decoding drops
    /// what it does not believe, such as a refusal's action, once and for all).
    private static func runXdnd(_ event: ClientMessage) -> String? {
        guard let atoms = xdndAtoms else { return nil }
        guard let message = try? XdndMessage(decoding: event, atoms: atoms) else { return "client message: not XDND or refused" }
        let bytes = message.clientMessage(window: event.window, atoms: atoms).encoded
        guard let again = try? XdndMessage(decoding: ClientMessage(decoding: bytes), atoms: atoms), again == message else {
            invariantViolated(.x11, "an XDND message does not survive encoding: \(message)")
        }
        return "xdnd: \(message)".prefix(80).description
    }

    /// The event signatures of the interfaces the bridge binds, without descriptors.
    static let signatures: [WireSignature] = [
        [.object, .uint, .string], [.uint], [.uint, .string, .uint], [.string], [.newID], [.object], [],
        [.int, .fixed, .array], [.untypedNewID], [.string, .uint, .object, .array],
    ]

    static func runWayland(_ input: UnsafeRawBufferPointer) -> String {
        guard input.count >= 2 else { return "short" }
        let signature = signatures[Int(input[0]) % signatures.count]
        let stream = Array(input.dropFirst(2))
        let split = stream.isEmpty ? 0 : Int(input[1]) % (stream.count + 1)
        var reader = MessageReader()
        reader.append(stream[..<split])
        reader.append(stream[split...])
        var decoded = 0
        do {
            while let frame = try reader.nextFrame() {
                guard let message = try? reader.decode(frame.bytes, signature: signature) else { continue }
                decoded += 1
                checkRoundTrip(message, signature: signature)
            }
        } catch {
            return "\(decoded) decoded, then refused: \(error)"
        }
        return "\(decoded) decoded"
    }

    private static func checkRoundTrip(_ message: WireMessage, signature: WireSignature) {
        guard let encoded = try? WireEncoder.encode(message) else {
            invariantViolated(.wayland, "a decoded message does not encode: \(message)")
        }
        var descriptors: [Int32] = []
        guard let again = try? WireDecoder.decode(encoded[...], signature: signature, descriptors: &descriptors), again == message else {
            invariantViolated(.wayland, "a decoded message does not survive encoding: \(message)")
        }
    }
}

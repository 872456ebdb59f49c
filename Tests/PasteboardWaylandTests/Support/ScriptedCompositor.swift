@testable import PasteboardWayland

/// Plays the compositor's side against a ``DataControlSession``: each event is encoded and goes
/// through the reader and the decoder as if it came off the socket.
struct ScriptedCompositor {
    var session: DataControlSession
    var changes: [SelectionChange] = []

    init() throws {
        session = try DataControlSession()
    }

    /// Sends one event (with `descriptors` beside it) and collects the changes it makes.
    mutating func send(_ objectID: UInt32, _ opcode: UInt16, _ arguments: [WireArgument] = [], descriptors: [Int32] = []) throws {
        var reader = MessageReader()
        reader.append(try WireEncoder.encode(WireMessage(objectID: objectID, opcode: opcode, arguments: arguments)), descriptors: descriptors)
        while let frame = try reader.nextFrame() {
            let message = try reader.decode(frame.bytes, signature: try session.signature(for: frame.header))
            changes += try session.handle(message)
        }
    }

    /// Takes the requests the session queued.
    mutating func requests() -> [WireMessage] {
        defer { session.outgoing = [] }
        return session.outgoing
    }

    /// `wl_registry.global` for each (name, interface, version) on registry 2, then `done` on callback 3.
    mutating func announce(_ globals: [(UInt32, String, UInt32)]) throws {
        for (name, interface, version) in globals {
            try send(2, 0, [.uint(name), .string(interface), .uint(version)])
        }
        try send(3, 0, [.uint(1)])
    }
}

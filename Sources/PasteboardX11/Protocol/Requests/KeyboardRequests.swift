/// A keysym (X11 protocol spec, appendix A): the symbol a key shows, which keycodes map to.
public struct Keysym: RawRepresentable, Hashable, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Escape (XK_Escape): the key that cancels a drag.
    public static let escape = Keysym(rawValue: 0xff1b)
}

extension X11Request {
    /// GetKeyboardMapping (101): the keysyms of `count` keycodes from `first`. The caller keeps
    /// them inside the setup's `keycodes` (the server answers BadValue outside).
    public static func getKeyboardMapping(first: UInt8, count: UInt8) -> X11Request {
        core("GetKeyboardMapping", opcode: 101, expectsReply: true) { writer in
            writer.u8(first)
            writer.u8(count)
            writer.zeros(2)
        }
    }
}

/// The keyboard mapping of a range of keycodes: for each, its keysyms (several for shift
/// levels and groups), as GetKeyboardMapping answered.
public struct KeyboardMapping: Equatable, Sendable {
    public let firstKeycode: UInt8
    public let keysymsPerKeycode: Int
    /// `keysymsPerKeycode` a keycode, keycode after keycode; NoSymbol is 0.
    public let keysyms: [UInt32]

    /// The keycodes with `keysym` at any level, lowest first: the keys a user may press for it.
    public func keycodes(for keysym: Keysym) -> Set<UInt8> {
        guard keysymsPerKeycode > 0 else { return [] }
        var found: Set<UInt8> = []
        for (index, symbol) in keysyms.enumerated() where symbol == keysym.rawValue {
            let keycode = Int(firstKeycode) + index / keysymsPerKeycode
            if let keycode = UInt8(exactly: keycode) { found.insert(keycode) }
        }
        return found
    }
}

extension X11Reply {
    /// A GetKeyboardMapping reply for keycodes from `first`: its length must be a whole number
    /// of keycodes, and no more than the `count` asked about, or it is refused.
    public static func keyboardMapping(_ reply: [UInt8], first: UInt8, count: UInt8) throws -> KeyboardMapping {
        var reader = try body(reply, "GetKeyboardMapping reply")
        let perKeycode = Int(reply[1])  // a reply is 32 bytes or more, checked by `body`
        try reader.skip(24)
        let symbols = reader.remaining / 4
        guard perKeycode > 0 ? symbols % perKeycode == 0 && symbols / perKeycode <= Int(count) : symbols == 0 else {
            throw X11Error.malformedFromServer("GetKeyboardMapping reply: \(symbols) keysyms are not \(count) keycodes of \(perKeycode)")
        }
        var keysyms: [UInt32] = []
        keysyms.reserveCapacity(symbols)
        for _ in 0..<symbols { keysyms.append(try reader.u32()) }
        return KeyboardMapping(firstKeycode: first, keysymsPerKeycode: perKeycode, keysyms: keysyms)
    }
}

extension X11Connection {
    /// The keycodes that give `keysym` on this server's keyboard (one round trip over every
    /// keycode the setup names): which KeyPress a drag's Esc arrives as.
    public func keycodes(for keysym: Keysym, timeout: Duration = .seconds(5)) throws(X11Error) -> Set<UInt8> {
        let range = setup.keycodes
        let count = UInt8(range.upperBound - range.lowerBound) &+ 1  // at most 248 keycodes: 8...255
        let reply = try roundTrip(.getKeyboardMapping(first: range.lowerBound, count: count), timeout: timeout)
        do {
            return try X11Reply.keyboardMapping(reply, first: range.lowerBound, count: count).keycodes(for: keysym)
        } catch let error as X11Error {
            throw error
        } catch {
            throw .malformedFromServer("\(error)")
        }
    }
}

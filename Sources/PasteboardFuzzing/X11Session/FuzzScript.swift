import Synchronization

/// The fuzzer's input read as a script of decisions, a byte at a time: the scripted X server
/// and the clients it plays take every choice from it. Once the input is spent every read gives
/// zero and `isSpent` is true, and the server ends the connection: a run never waits on a
/// script with nothing left to say.
final class FuzzScript: Sendable {
    private struct Position {
        var bytes: [UInt8]
        var offset = 0
    }

    private let position: Mutex<Position>

    init(_ bytes: [UInt8]) {
        position = Mutex(Position(bytes: bytes))
    }

    var isSpent: Bool { position.withLock { $0.offset >= $0.bytes.count } }

    /// The next byte, 0 once spent.
    func byte() -> UInt8 {
        position.withLock { position in
            guard position.offset < position.bytes.count else { return 0 }
            defer { position.offset += 1 }
            return position.bytes[position.offset]
        }
    }

    /// A number below `bound` (0 when `bound` is 0).
    func pick(_ bound: Int) -> Int {
        guard bound > 1 else { return 0 }
        return bound <= 256 ? Int(byte()) % bound : (Int(byte()) << 8 | Int(byte())) % bound
    }

    /// True with a chance of about `per256` in 256.
    func chance(_ per256: UInt8) -> Bool { byte() < per256 }

    func u32() -> UInt32 {
        (0..<4).reduce(0) { value, _ in value << 8 | UInt32(byte()) }
    }
}

/// Reads a terminal's answer to an OSC 52 query from the bytes its input delivers:
/// `ESC ] 52 ; SELECTION ; DATA` ended by BEL or ST (`ESC \`). The selection is not compared:
/// tmux answers with an empty one. Bytes before the answer (keys typed meanwhile, another
/// program's reply) are skipped. Everything is bounded: the answer's data by `limit`, the bytes
/// skipped before it by `skipLimit`, so a terminal that streams without end cannot grow it.
public struct OSC52Reply: Sendable {
    /// What the bytes fed so far amount to.
    public enum State: Sendable, Equatable {
        /// No whole answer yet: feed more.
        case incomplete
        /// The answer, decoded (empty when the terminal's clipboard is).
        case answered([UInt8])
        /// The answer's data passed `limit` bytes before it ended.
        case tooLong(limit: Int)
        /// More than `skipLimit` bytes came without an answer starting.
        case noAnswer
        /// The answer's data is not Base64.
        case malformed
    }

    /// The most bytes of data (Base64, as sent) an answer may have.
    public let limit: Int
    /// The most bytes skipped before an answer starts.
    public let skipLimit: Int

    private static let introducer: [UInt8] = [OSC52Sequence.escape, UInt8(ascii: "]"), UInt8(ascii: "5"), UInt8(ascii: "2"), UInt8(ascii: ";")]
    /// The most bytes a selection field may have (xterm's letters: `cpqs01234567`).
    private static let selectionLimit = 12

    private enum Phase: Sendable, Equatable {
        /// Looking for the introducer; `matched` of its bytes seen.
        case searching(matched: Int)
        /// Inside the selection field.
        case selection(length: Int)
        /// Inside the data; `escape` when the last byte was ESC (ST's first half).
        case data(escape: Bool)
        case finished(State)
    }

    private var phase = Phase.searching(matched: 0)
    private var skipped = 0
    private var data: [UInt8] = []

    public init(limit: Int, skipLimit: Int = 4096) {
        self.limit = limit
        self.skipLimit = skipLimit
    }

    /// Takes the next bytes of the terminal's input and says what they amount to; once the
    /// state is not `.incomplete` further bytes change nothing.
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> State {
        for byte in bytes {
            if case .finished(let state) = phase { return state }
            step(byte)
        }
        if case .finished(let state) = phase { return state }
        return .incomplete
    }

    private mutating func step(_ byte: UInt8) {
        switch phase {
        case .searching(let matched):
            if byte == Self.introducer[matched] {
                phase = matched + 1 == Self.introducer.count ? .selection(length: 0) : .searching(matched: matched + 1)
                return
            }
            skipped += matched + 1
            // A mismatched ESC may begin the introducer itself.
            phase = byte == OSC52Sequence.escape ? .searching(matched: 1) : .searching(matched: 0)
            if byte == OSC52Sequence.escape { skipped -= 1 }
            if skipped > skipLimit { phase = .finished(.noAnswer) }
        case .selection(let length):
            if byte == UInt8(ascii: ";") {
                phase = .data(escape: false)
            } else if length + 1 > Self.selectionLimit || !(byte.isASCIILetterOrDigit) {
                phase = .finished(.malformed)
            } else {
                phase = .selection(length: length + 1)
            }
        case .data(let escape):
            if escape {
                phase = byte == UInt8(ascii: "\\") ? finish() : .finished(.malformed)
            } else if byte == OSC52Sequence.bell {
                phase = finish()
            } else if byte == OSC52Sequence.escape {
                phase = .data(escape: true)
            } else if data.count == limit {
                phase = .finished(.tooLong(limit: limit))
                data = []
            } else {
                data.append(byte)
            }
        case .finished:
            break
        }
    }

    private mutating func finish() -> Phase {
        defer { data = [] }
        guard let decoded = Base64.decode(data) else { return .finished(.malformed) }
        return .finished(.answered(decoded))
    }
}

private extension UInt8 {
    var isASCIILetterOrDigit: Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self)
    }
}

/// Applies an `ExportConversion` to a representation streamed in chunks of any size: what a
/// chunk boundary cuts (a UTF-8 sequence, a `\r\n`) is carried to the next chunk, so the output
/// is the same however the input was cut, and the memory held is a few bytes.
public struct ExportEncoder: Sendable {
    public let conversion: ExportConversion
    /// UTF-8: the start of a sequence the last chunk ended in (at most 3 bytes).
    private var heldBack: [UInt8] = []
    private var uriList = URIListState()

    public init(_ conversion: ExportConversion) {
        self.conversion = conversion
    }

    /// The converted bytes of the next `chunk` (maybe fewer than it has, held back till later).
    public mutating func encode(_ chunk: some Collection<UInt8>) -> [UInt8] {
        switch conversion {
        case .none:
            // In one move where the chunk is contiguous (a received chunk is), not byte by byte.
            return chunk.withContiguousStorageIfAvailable { Array($0) } ?? Array(chunk)
        case .utf8ToLatin1:
            var input = heldBack
            if chunk.withContiguousStorageIfAvailable({ input.append(contentsOf: $0) }) == nil { input.append(contentsOf: chunk) }
            let cut = input.count - Self.incompleteSuffixLength(input)
            heldBack = Array(input[cut...])
            return Self.latin1(input[..<cut])
        case .uriListToGnomeCopiedFiles:
            var output: [UInt8] = []
            for byte in chunk { uriList.feed(byte, into: &output) }
            return output
        }
    }

    /// The bytes that end the data: a UTF-8 sequence cut off at the end becomes `?`; the GNOME
    /// list gets its `copy` line even when the URI list was empty.
    public mutating func finish() -> [UInt8] {
        switch conversion {
        case .none:
            return []
        case .utf8ToLatin1:
            defer { heldBack = [] }
            return Self.latin1(heldBack[...])
        case .uriListToGnomeCopiedFiles:
            var output: [UInt8] = []
            uriList.finish(into: &output)
            return output
        }
    }

    /// How many bytes at the end of `bytes` begin a UTF-8 sequence that needs more bytes than
    /// there are (0 when the data ends on a whole sequence or on a malformed one).
    static func incompleteSuffixLength(_ bytes: [UInt8]) -> Int {
        for back in 1...min(3, max(1, bytes.count)) where back <= bytes.count {
            let byte = bytes[bytes.count - back]
            if byte & 0xC0 == 0x80 { continue }  // a continuation byte: look further back
            let needed = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
            return needed > back ? back : 0
        }
        return 0
    }

    /// `bytes` (UTF-8) as Latin-1: each scalar up to U+00FF as its byte, anything else and each
    /// maximal malformed part as `?`.
    static func latin1(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case let .scalarValue(scalar):
                output.append(scalar.value <= 0xFF ? UInt8(scalar.value) : UInt8(ascii: "?"))
            case .error:
                output.append(UInt8(ascii: "?"))
            case .emptyInput:
                return output
            }
        }
    }
}

/// The line state of a URI list being turned into GNOME's list: the `copy` line first, then
/// each URI line without its `\r`, comments and blank lines left out.
private struct URIListState: Sendable {
    private enum Line { case start, uri, comment }
    private var line = Line.start
    private var startedList = false
    /// A `\r` not yet known to end its line.
    private var pendingReturn = false

    mutating func feed(_ byte: UInt8, into output: inout [UInt8]) {
        begin(&output)
        if byte == UInt8(ascii: "\n") {
            pendingReturn = false
            line = .start
            return
        }
        switch line {
        case .comment:
            return
        case .start:
            if byte == UInt8(ascii: "#") {
                line = .comment
                return
            }
            if byte == UInt8(ascii: "\r") {
                // A blank line's `\r`, or the first byte of a URI that is only `\r`: neither is a URI.
                return
            }
            output.append(UInt8(ascii: "\n"))
            line = .uri
            output.append(byte)
        case .uri:
            if pendingReturn {
                output.append(UInt8(ascii: "\r"))
                pendingReturn = false
            }
            if byte == UInt8(ascii: "\r") {
                pendingReturn = true
            } else {
                output.append(byte)
            }
        }
    }

    mutating func finish(into output: inout [UInt8]) {
        begin(&output)
        pendingReturn = false
    }

    private mutating func begin(_ output: inout [UInt8]) {
        guard !startedList else { return }
        startedList = true
        output.append(contentsOf: Array("copy".utf8))
    }
}

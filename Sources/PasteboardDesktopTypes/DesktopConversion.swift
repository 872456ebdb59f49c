import PasteboardTypes

extension DesktopRepresentation.Conversion {
    /// `bytes` converted. Streaming is possible for every conversion (each works line by line or
    /// byte by byte), but the bridge applies the two that change bytes to small data only
    /// (text from a `STRING` owner, a file manager's list), so this takes them whole.
    public func apply(to bytes: [UInt8]) -> [UInt8] {
        switch self {
        case .none:
            return bytes
        case .latin1ToUTF8:
            var result: [UInt8] = []
            result.reserveCapacity(bytes.count)
            for byte in bytes {
                if byte < 0x80 {
                    result.append(byte)
                } else {
                    result.append(0xC0 | (byte >> 6))
                    result.append(0x80 | (byte & 0x3F))
                }
            }
            return result
        case .gnomeCopiedFilesToURIList:
            let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true)
                .map { $0.last == UInt8(ascii: "\r") ? $0.dropLast() : $0 }
            // The first line is the operation (`copy` or `cut`); the rest are URIs.
            var result: [UInt8] = []
            for line in lines.dropFirst() where !line.isEmpty {
                result += line
                result += [UInt8(ascii: "\r"), UInt8(ascii: "\n")]
            }
            return result
        }
    }
}

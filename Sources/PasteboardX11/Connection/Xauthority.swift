#if canImport(Glibc)
import Glibc
#endif
import PasteboardSystem

/// One entry of an Xauthority file (libXau's `Xauth`).
public struct XauthorityEntry: Equatable, Sendable {
    public let family: UInt16
    public let address: [UInt8]
    /// The display number as decimal text; empty matches every display.
    public let number: String
    public let name: String
    public let data: [UInt8]

    public init(family: UInt16, address: [UInt8], number: String, name: String, data: [UInt8]) {
        self.family = family
        self.address = address
        self.number = number
        self.name = name
        self.data = data
    }
}

/// The Xauthority file, which holds the cookies X servers accept (`XAUTHORITY`, else
/// `~/.Xauthority`). Its format is libXau's: entries of a big-endian u16 family, then four
/// strings, each a big-endian u16 length and that many bytes: address, display number,
/// authorization name, authorization data.
public enum Xauthority {
    public static let familyInternet: UInt16 = 0
    public static let familyInternet6: UInt16 = 6
    public static let familyLocal: UInt16 = 256
    public static let familyWild: UInt16 = 65535
    /// The only authorization protocol we speak: the server compares the 16-byte cookie.
    public static let magicCookieName = "MIT-MAGIC-COOKIE-1"

    /// Parses a whole file. Every length is checked against the bytes left: a truncated or
    /// garbled file is an error naming the entry and the offset, never a crash.
    public static func parse(_ bytes: [UInt8], path: String = "Xauthority") throws -> [XauthorityEntry] {
        var entries: [XauthorityEntry] = []
        var offset = 0
        func fail(_ reason: String) -> X11Error {
            .malformedAuthority(path: path, reason: "entry \(entries.count + 1) at byte \(offset): \(reason)")
        }
        func u16() throws -> Int {
            guard bytes.count - offset >= 2 else { throw fail("truncated (a 2-byte length or family expected, \(bytes.count - offset) bytes left)") }
            defer { offset += 2 }
            return Int(bytes[offset]) << 8 | Int(bytes[offset + 1])
        }
        func field(_ what: String) throws -> [UInt8] {
            let length = try u16()
            guard bytes.count - offset >= length else { throw fail("\(what) of \(length) bytes, only \(bytes.count - offset) left") }
            defer { offset += length }
            return Array(bytes[offset..<offset + length])
        }
        while offset < bytes.count {
            let family = UInt16(try u16())
            let address = try field("address")
            let number = try field("display number")
            let name = try field("authorization name")
            let data = try field("authorization data")
            guard number.allSatisfy({ (0x30...0x39).contains($0) }) else { throw fail("display number is not decimal") }
            entries.append(XauthorityEntry(
                family: family, address: address, number: String(decoding: number, as: UTF8.self),
                name: String(decoding: name, as: UTF8.self), data: data))
        }
        return entries
    }

    /// The file libXau reads: `XAUTHORITY`, else `$HOME/.Xauthority`; nil when neither is set.
    public static func path(environment: [String: String]) -> String? {
        if let path = environment["XAUTHORITY"], !path.isEmpty { return path }
        if let home = environment["HOME"], !home.isEmpty { return home + "/.Xauthority" }
        return nil
    }

    /// The entry libXau's `XauGetBestAuthByAddr` picks for a display reached as `family` and
    /// `address`, restricted to MIT-MAGIC-COOKIE-1: the first entry whose family is wild or
    /// equal with an equal address, and whose number is empty or `displayNumber`.
    public static func bestEntry(in entries: [XauthorityEntry], family: UInt16, address: [UInt8], displayNumber: Int) -> XauthorityEntry? {
        let number = String(displayNumber)
        return entries.first { entry in
            (entry.family == familyWild || (entry.family == family && entry.address == address))
                && (entry.number.isEmpty || entry.number == number)
                && entry.name == magicCookieName
        }
    }

    /// Reads the file at `path`: nil when it does not exist (the server may need no cookie),
    /// an error when it cannot be read or is malformed.
    public static func load(path: String) throws -> [XauthorityEntry]? {
        // Non-blocking: a FIFO at the path must not hang the bridge.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw X11Error.malformedAuthority(path: path, reason: "cannot open: \(SystemError.current)")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw X11Error.malformedAuthority(path: path, reason: "not a regular file")
        }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw X11Error.malformedAuthority(path: path, reason: "cannot read: \(SystemError.current)")
            }
            if count == 0 { break }
            bytes.append(contentsOf: buffer[..<count])
            guard bytes.count <= 1 << 20 else { throw X11Error.malformedAuthority(path: path, reason: "larger than 1 MiB") }
        }
        return try parse(bytes, path: path)
    }

    /// This machine's name, the address of FamilyLocal entries (as libxcb sends for local
    /// and loopback connections).
    public static func hostname() -> [UInt8] {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return [] }
        return buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
    }
}

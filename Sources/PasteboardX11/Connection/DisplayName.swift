/// A parsed `DISPLAY` value, following libxcb's `xcb_parse_display`: `[host]:N[.S]`, `unix:N`,
/// `tcp/host:N`, and a socket path `/path/to/socket:N` (as launchd-style systems set).
/// Whether the display is local matters: a forwarded display (`ssh -X` gives
/// `localhost:10.0`, a TCP port on the SSH server) dies with the session, so the bridge
/// connects only to local displays unless asked to.
public struct DisplayName: Equatable, Sendable, CustomStringConvertible {
    public enum Transport: Equatable, Sendable {
        /// A Unix socket: the abstract name `@/tmp/.X11-unix/XN` first (as libxcb tries it),
        /// then the file of the same path, or an explicit path.
        case unix(paths: [UnixSocketAddress])
        /// TCP to `host` at `port` (6000 + N).
        case tcp(host: String, port: UInt16)
    }

    /// The text parsed, for messages.
    public let text: String
    public let displayNumber: Int
    public let screen: Int
    public let transport: Transport

    /// A Unix socket reached by the display: local to this machine.
    public var isLocal: Bool {
        if case .unix = transport { return true }
        return false
    }

    public var description: String { text }

    /// The largest display number whose TCP port (6000 + N) fits 16 bits.
    static let maximumDisplayNumber = Int(UInt16.max) - 6000

    /// Parses `text`; throws `X11Error.badDisplayName` for anything libxcb would not accept
    /// (and for DECnet's `host::N`, which we do not speak).
    public init(_ text: String) throws {
        func bad(_ reason: String) -> X11Error { .badDisplayName(text, reason: reason) }
        guard !text.isEmpty else { throw bad("empty") }
        guard let colon = text.lastIndex(of: ":") else { throw bad("no ':' before the display number") }
        var host = String(text[..<colon])
        let numbers = text[text.index(after: colon)...]
        var protocolName: String?
        if !host.hasPrefix("/"), let slash = host.firstIndex(of: "/") {
            protocolName = String(host[..<slash])
            host = String(host[host.index(after: slash)...])
        }
        guard !host.hasSuffix(":") else { throw bad("DECnet displays (host::N) are not supported") }
        let parts = numbers.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let number = Self.decimal(parts[0]), number <= Self.maximumDisplayNumber else {
            throw bad("the display number must be a decimal from 0 to \(Self.maximumDisplayNumber)")
        }
        var screen = 0
        if parts.count == 2 {
            guard let value = Self.decimal(parts[1]) else { throw bad("the screen number must be a decimal") }
            screen = value
        }
        self.text = text
        self.displayNumber = number
        self.screen = screen
        if host.hasPrefix("/") {
            // libxcb: the whole text names the socket if it exists, else the part before ":N".
            transport = .unix(paths: [.path(text), .path(host)])
        } else if protocolName == "unix" || (protocolName == nil && (host.isEmpty || host == "unix")) {
            guard host.isEmpty || host == "unix" else { throw bad("a unix display takes no host name") }
            let path = "/tmp/.X11-unix/X\(number)"
            transport = .unix(paths: [.abstract(path), .path(path)])
        } else {
            guard protocolName == nil || protocolName == "tcp" || protocolName == "inet" || protocolName == "inet6" else {
                throw bad("unknown protocol \(protocolName!)")
            }
            var name = host.isEmpty ? "localhost" : host
            if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
            transport = .tcp(host: name, port: UInt16(6000 + number))
        }
    }

    private static func decimal(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.count <= 6, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(text)
    }
}

/// A Unix socket address: a file path, or a name in Linux's abstract namespace.
public enum UnixSocketAddress: Equatable, Sendable, CustomStringConvertible {
    case path(String)
    case abstract(String)

    public var description: String {
        switch self {
        case let .path(path): path
        case let .abstract(name): "@" + name
        }
    }
}

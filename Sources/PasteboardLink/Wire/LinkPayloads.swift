public import PasteboardJSON
public import PasteboardProtocol
import PasteboardSystem

/// `link-hello`: who an end is and what it shares.
public struct LinkHello: Sendable, Equatable, JSONObjectCoding {
    /// The link protocol's version (``LinkHello/currentVersion``); ends of different versions part.
    public var version: Int
    /// The software, for humans ("pb 0.9").
    public var software: String
    /// The machine of this end's daemon (32 hexadecimal digits).
    public var machine: String
    /// That machine's name, for humans.
    public var name: String
    /// The pasteboards this end shares; a change crosses only on those both ends share.
    public var pasteboards: [String]
    /// Whether this end sends and takes sensitive items.
    public var sensitive: Bool
    /// The most bytes of inline data this end takes with one offer.
    public var capture: Int
    /// The flow-control window this end grants every fetch it answers' sender, in bytes.
    public var window: Int

    public static let currentVersion = 1

    public init(version: Int = LinkHello.currentVersion, software: String, machine: String, name: String, pasteboards: [String],
                sensitive: Bool, capture: Int, window: Int) {
        self.version = version
        self.software = software
        self.machine = machine
        self.name = name
        self.pasteboards = pasteboards
        self.sensitive = sensitive
        self.capture = capture
        self.window = window
    }

    public static var decodingStart: LinkHello { LinkHello(version: 0, software: "", machine: "", name: "", pasteboards: [], sensitive: false, capture: 0, window: 0) }

    public mutating func members<Members: JSONMembers>(_ json: inout Members) throws(Members.Failure) {
        try json.member("version", &version)
        try json.member("software", &software)
        try json.member("machine", &machine)
        try json.member("name", &name)
        try json.member("pasteboards", &pasteboards)
        try json.member("sensitive", &sensitive)
        try json.member("capture", &capture)
        try json.member("window", &window)
    }

    /// The largest `capture` and `window` an end announces: 64 MiB and 1 GiB.
    public static let captureLimit = 64 << 20
    public static let windowRange = (64 << 10)...(1 << 30)

    /// Why the peer's hello cannot be worked with, or nil.
    public var problem: String? {
        if !MachineID.isValid(machine) { return "the peer's machine id is not 32 hexadecimal digits" }
        if name.isEmpty || name.utf8.count > 255 { return "the peer's machine name is empty or longer than 255 bytes" }
        if pasteboards.count > 64 { return "the peer shares more than 64 pasteboards" }
        if let bad = pasteboards.first(where: { PasteboardName.validationFailure($0) != nil }) { return "the peer shares an invalid pasteboard name '\(bad.prefix(64))'" }
        if !(0...Self.captureLimit).contains(capture) { return "the peer's capture \(capture) is outside 0 to \(Self.captureLimit)" }
        if !Self.windowRange.contains(window) { return "the peer's window \(window) is outside \(Self.windowRange.lowerBound) to \(Self.windowRange.upperBound)" }
        return nil
    }
}

/// One representation of an offered item.
public struct LinkRepresentation: Sendable, Equatable, JSONObjectCoding {
    /// Its type identifier.
    public var type: String
    /// Its byte count when known.
    public var size: Int?
    /// True when its bytes follow the offer (small text); else they are fetched when pasted.
    public var inline: Bool?

    public init(type: String, size: Int? = nil, inline: Bool? = nil) {
        self.type = type
        self.size = size
        self.inline = inline
    }

    public static var decodingStart: LinkRepresentation { LinkRepresentation(type: "") }

    public mutating func members<Members: JSONMembers>(_ json: inout Members) throws(Members.Failure) {
        try json.member("type", &type)
        try json.member("size", &size)
        try json.member("inline", &inline)
    }
}

/// One offered item: its representations in fidelity order.
public struct LinkItem: Sendable, Equatable, JSONObjectCoding {
    public var representations: [LinkRepresentation]
    public var suggestedName: String?
    /// Set when the item is a secret (sent only over links that both allow it).
    public var sensitive: Bool?

    public init(representations: [LinkRepresentation], suggestedName: String? = nil, sensitive: Bool? = nil) {
        self.representations = representations
        self.suggestedName = suggestedName
        self.sensitive = sensitive
    }

    public static var decodingStart: LinkItem { LinkItem(representations: []) }

    public mutating func members<Members: JSONMembers>(_ json: inout Members) throws(Members.Failure) {
        try json.member("representations", &representations)
        try json.member("suggestedName", &suggestedName)
        try json.member("sensitive", &sensitive)
    }
}

/// `offer`: a pasteboard's new content, made at `origin`.
public struct LinkOffer: Sendable, Equatable, JSONObjectCoding {
    public var pasteboard: String
    public var origin: ChangeOrigin
    public var items: [LinkItem]
    /// Seconds until the content expires, when it does.
    public var expiresIn: Double?

    public init(pasteboard: String, origin: ChangeOrigin, items: [LinkItem], expiresIn: Double? = nil) {
        self.pasteboard = pasteboard
        self.origin = origin
        self.items = items
        self.expiresIn = expiresIn
    }

    public static var decodingStart: LinkOffer { LinkOffer(pasteboard: "", origin: .decodingStart, items: []) }

    public mutating func members<Members: JSONMembers>(_ json: inout Members) throws(Members.Failure) {
        try json.member("pasteboard", &pasteboard)
        try json.member("origin", &origin)
        try json.member("items", &items)
        try json.member("expiresIn", &expiresIn)
    }
}

/// `link-clear`: a pasteboard was cleared at `origin`.
public struct LinkClear: Sendable, Equatable, JSONObjectCoding {
    public var pasteboard: String
    public var origin: ChangeOrigin

    public init(pasteboard: String, origin: ChangeOrigin) {
        self.pasteboard = pasteboard
        self.origin = origin
    }

    public static var decodingStart: LinkClear { LinkClear(pasteboard: "", origin: .decodingStart) }

    public mutating func members<Members: JSONMembers>(_ json: inout Members) throws(Members.Failure) {
        try json.member("pasteboard", &pasteboard)
        try json.member("origin", &origin)
    }
}

/// `fetch`: representation `type` of item `item` of the content `origin` of `pasteboard`.
public struct LinkFetch: Sendable, Equatable, JSONObjectCoding {
    public var pasteboard: String
    public var origin: ChangeOrigin
    public var item: Int
    public var type: String

    public init(pasteboard: String, origin: ChangeOrigin, item: Int, type: String) {
        self.pasteboard = pasteboard
        self.origin = origin
        self.item = item
        self.type = type
    }

    public static var decodingStart: LinkFetch { LinkFetch(pasteboard: "", origin: .decodingStart, item: 0, type: "") }

    public mutating func members<Members: JSONMembers>(_ json: inout Members) throws(Members.Failure) {
        try json.member("pasteboard", &pasteboard)
        try json.member("origin", &origin)
        try json.member("item", &item)
        try json.member("type", &type)
    }
}

/// `fetched`: the answer to a `fetch`: the representation's type and, when known, its size.
public struct LinkHeader: Sendable, Equatable, JSONObjectCoding {
    public var type: String
    public var size: Int?

    public init(type: String, size: Int?) {
        self.type = type
        self.size = size
    }

    public static var decodingStart: LinkHeader { LinkHeader(type: "", size: nil) }

    public mutating func members<Members: JSONMembers>(_ json: inout Members) throws(Members.Failure) {
        try json.member("type", &type)
        try json.member("size", &size)
    }
}

/// `ping` and `pong`: a value the answerer echoes (the sender's clock, in microseconds).
public struct LinkPing: Sendable, Equatable, JSONObjectCoding {
    public var value: Int

    public init(value: Int) { self.value = value }

    public static var decodingStart: LinkPing { LinkPing(value: 0) }

    public mutating func members<Members: JSONMembers>(_ json: inout Members) throws(Members.Failure) {
        try json.member("value", &value)
    }
}

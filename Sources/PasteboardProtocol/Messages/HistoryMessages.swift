public import PasteboardJSON

/// `history`: describe the general pasteboard's history, newest first, from entry `start` on
/// (absent: 0, the newest); a `history-list` that says `more` continues one past its last
/// entry's index.
public typealias HistoryRequest = PageRequest

/// `history-search`: the text to look for in the general pasteboard's history.
public struct HistorySearchRequest: Sendable, Equatable, JSONObjectCoding {
    /// Matched case-insensitively as a substring of each entry's text representations; never empty.
    public var text: String
    /// Search the entries from this index on (absent: 0), as in `history`.
    public var start: Int?

    public init(text: String, start: Int? = nil) {
        self.text = text
        self.start = start
    }
}

extension HistorySearchRequest {
    public static var decodingStart: HistorySearchRequest { HistorySearchRequest(text: "") }

    public mutating func members<Members: JSONMembers>(_ json: inout Members) throws(Members.Failure) {
        try json.member("text", &text)
        try json.member("start", &start)
    }
}

/// `history-restore`: which history entry becomes the general pasteboard's content again.
public struct HistoryRestoreRequest: Sendable, Equatable, JSONObjectCoding {
    /// The entry's index in the history as listed now: 0 is the newest.
    public var index: Int

    public init(index: Int) { self.index = index }
}

extension HistoryRestoreRequest {
    public static var decodingStart: HistoryRestoreRequest { HistoryRestoreRequest(index: 0) }

    public mutating func members<Members: JSONMembers>(_ json: inout Members) throws(Members.Failure) {
        try json.member("index", &index)
    }
}

/// `history-list`: the answer to `history` and `history-search`.
public struct HistoryList: Sendable, Equatable, JSONObjectCoding {
    /// The entries, newest first (for a search, only those that match).
    public var entries: [HistoryEntryInfo]
    /// True when entries after the last one were left out to fit the answer in one frame: ask
    /// again with `start` one past the last entry's index.
    public var more: Bool?

    public init(entries: [HistoryEntryInfo], more: Bool? = nil) {
        self.entries = entries
        self.more = more
    }
}

extension HistoryList {
    public static var decodingStart: HistoryList { HistoryList(entries: []) }

    public mutating func members<Members: JSONMembers>(_ json: inout Members) throws(Members.Failure) {
        try json.member("entries", &entries)
        try json.member("more", &more)
    }
}

/// One entry of the general pasteboard's history as described on the wire: an earlier (or the
/// current) content, never its data.
public struct HistoryEntryInfo: Sendable, Equatable, JSONObjectCoding {
    /// The entry's index in the whole history: 0 is the newest. `history-restore` takes it.
    public var index: Int
    /// The general pasteboard's change count when this content was written (or restored).
    public var changeCount: Int
    /// When it was written, in seconds since 1970-01-01 00:00 UTC.
    public var time: Double
    /// True when this entry is the general pasteboard's content now.
    public var current: Bool?
    /// The sum of the known sizes of its representations, in bytes.
    public var size: Int
    /// The start of its text (at most 100 characters, newlines and all), when it has text.
    public var preview: String?
    /// Its items, described as in `items` (types, sizes, MIME types; `lazy` while a live
    /// source still promises a representation of the current content).
    public var items: [ItemInfo]
    /// The machine the content came from over a link, when it was not made on this one.
    public var origin: ChangeOrigin?

    public init(index: Int, changeCount: Int, time: Double, current: Bool? = nil, size: Int, preview: String? = nil, items: [ItemInfo],
                origin: ChangeOrigin? = nil) {
        self.origin = origin
        self.index = index
        self.changeCount = changeCount
        self.time = time
        self.current = current
        self.size = size
        self.preview = preview
        self.items = items
    }
}

extension HistoryEntryInfo {
    public static var decodingStart: HistoryEntryInfo { HistoryEntryInfo(index: 0, changeCount: 0, time: 0, size: 0, items: []) }

    public mutating func members<Members: JSONMembers>(_ json: inout Members) throws(Members.Failure) {
        try json.member("index", &index)
        try json.member("changeCount", &changeCount)
        try json.member("time", &time)
        try json.member("current", &current)
        try json.member("size", &size)
        try json.member("preview", &preview)
        try json.member("items", &items)
        try json.member("origin", &origin)
    }
}

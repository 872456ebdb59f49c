public import PasteboardJSON
public import PasteboardTypes

/// `types`: describe the daemon's type declarations, from declaration `start` on (absent: 0);
/// a `type-list` that says `more` continues with `start` advanced by the declarations received.
public typealias TypesRequest = PageRequest

/// `type-list`: the answer to `types`.
public struct TypeList: Sendable, Equatable, JSONObjectCoding {
    /// Changes whenever the daemon's declarations change (an app declares or replaces a type, a
    /// reload of `types.d`): a client that reads several answers starts again when it differs.
    public var generation: Int
    /// The declarations from the requested `start` on, in the daemon's order (built-in types,
    /// then the user's files in name order, then the apps' in the order they were first declared).
    public var types: [TypeDeclarationInfo]
    /// True when declarations after the last one were left out to fit the answer in one frame:
    /// ask again with `start` advanced by the number of `types` received.
    public var more: Bool?

    public init(generation: Int, types: [TypeDeclarationInfo], more: Bool? = nil) {
        self.generation = generation
        self.types = types
        self.more = more
    }
}

extension TypeList {
    public static var decodingStart: TypeList { TypeList(generation: 0, types: []) }

    public mutating func members<Members: JSONMembers>(_ json: inout Members) throws(Members.Failure) {
        try json.member("generation", &generation)
        try json.member("types", &types)
        try json.member("more", &more)
    }
}

/// `types-changed`: on a `watch-types`, the generation of the daemon's declarations (as in
/// `type-list`): sent at once, then each time an app declares or replaces a type or `types.d`
/// is reloaded. A client that follows the registry reads it again with `types` when it differs
/// from the one it read.
public struct TypesChanged: Sendable, Equatable, JSONObjectCoding {
    public var generation: Int

    public init(generation: Int) { self.generation = generation }
}

extension TypesChanged {
    public static var decodingStart: TypesChanged { TypesChanged(generation: 0) }

    public mutating func members<Members: JSONMembers>(_ json: inout Members) throws(Members.Failure) {
        try json.member("generation", &generation)
    }
}

/// One declaration the daemon holds, and where it came from.
public struct TypeDeclarationInfo: Sendable, Equatable, JSONObjectCoding {
    /// The declaration, in the format of pasteboard-types(5).
    public var declaration: TypeDeclaration
    /// Where it came from: ``builtIn``, ``file`` (see `file`) or ``app`` (see `app`). A client
    /// treats a value it does not know as an unknown origin.
    public var source: String
    /// With `source` `file`: the declaration file's path.
    public var file: String?
    /// With `source` `app`: the application that declared it (its `hello.app`, else its `client`).
    public var app: String?
    /// True when the declaration alone does not fit in a frame and was sent without its
    /// `description` and `magic`.
    public var abridged: Bool?

    /// `source` of a built-in type.
    public static let builtIn = "built-in"
    /// `source` of a type declared in a file of the user's `types.d`.
    public static let file = "file"
    /// `source` of a type an application declared with `declare`.
    public static let app = "app"

    public init(declaration: TypeDeclaration, source: String, file: String? = nil, app: String? = nil, abridged: Bool? = nil) {
        self.declaration = declaration
        self.source = source
        self.file = file
        self.app = app
        self.abridged = abridged
    }

    /// Where it came from, for people: `built-in`, the file's path, or `declared by APP`.
    public var origin: String {
        switch source {
        case Self.builtIn: "built-in"
        case Self.file: file ?? "a file"
        case Self.app: "declared by \(app ?? "an app")"
        default: source
        }
    }
}

extension TypeDeclarationInfo {
    public static var decodingStart: TypeDeclarationInfo { TypeDeclarationInfo(declaration: TypeDeclaration(identifier: "public.data"), source: "") }

    public mutating func members<Members: JSONMembers>(_ json: inout Members) throws(Members.Failure) {
        try json.member("declaration", &declaration)
        try json.member("source", &source)
        try json.member("file", &file)
        try json.member("app", &app)
        try json.member("abridged", &abridged)
    }
}

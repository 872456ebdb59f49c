internal import PasteboardJSON

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Turns declaration-file JSON into declarations, reporting structural problems with field paths.
enum DeclarationParser {
    /// One problem found at `field`.
    struct Problem: Hashable, Sendable {
        /// The field path, e.g. `types[2].magic[0].bytes`.
        var field: String
        /// What is wrong.
        var message: String
    }

    /// The result of parsing one file.
    struct FileResult: Sendable {
        /// Declarations that parsed, with their index in the file's `types` array.
        var entries: [(index: Int, declaration: TypeDeclaration)] = []
        /// Identifiers of declarations that were rejected while parsing (so their children can say so).
        var rejected: Set<TypeIdentifier> = []
        /// Problems, in file order.
        var problems: [Problem] = []
        /// The application the file belongs to (its `app` member): the one app that may replace
        /// the file's declarations when it connects.
        var app: String?
    }

    /// Parses `{"app": ..., "types": [...]}` (`app` optional).
    static func file(_ data: Data) -> FileResult {
        var result = FileResult()
        let root: JSONValue
        do {
            root = try JSONValue.parse(data)
        } catch {
            result.problems.append(Problem(field: "(file)", message: "not valid JSON: \(error)"))
            return result
        }
        guard case .object(let object) = root else {
            result.problems.append(Problem(
                field: "(file)", message: "expected an object with a \"types\" array, found \(root.typeName)"))
            return result
        }
        for key in object.keys.sorted() where key != "types" && key != "app" {
            result.problems.append(Problem(field: key, message: "unknown field '\(key)'"))
        }
        switch object["app"] {
        case nil: break
        case .string(let app)? where !app.isEmpty && app.utf8.count <= 255 && !app.contains(where: \.isNewline):
            result.app = app
        case .string?:
            result.problems.append(Problem(field: "app", message: "an application name is 1 to 255 bytes on one line"))
        case let other?:
            result.problems.append(Problem(field: "app", message: "expected a string, found \(other.typeName)"))
        }
        guard let types = object["types"] else {
            result.problems.append(Problem(field: "types", message: "missing required field 'types'"))
            return result
        }
        guard case .array(let elements) = types else {
            result.problems.append(Problem(field: "types", message: "expected an array, found \(types.typeName)"))
            return result
        }
        for (index, element) in elements.enumerated() {
            let parsed = declaration(element, path: "types[\(index)]", problems: &result.problems)
            if let declaration = parsed.declaration {
                result.entries.append((index, declaration))
            } else if let identifier = parsed.identifier {
                result.rejected.insert(identifier)
            }
        }
        return result
    }

    /// Parses one declaration object; returns the declaration if it had no problems, and the
    /// identifier whenever it could be read.
    static func declaration(
        _ value: JSONValue, path: String, problems: inout [Problem]
    ) -> (declaration: TypeDeclaration?, identifier: TypeIdentifier?) {
        func field(_ name: String) -> String { path.isEmpty ? name : "\(path).\(name)" }
        guard case .object(let object) = value else {
            problems.append(Problem(field: path.isEmpty ? "(declaration)" : path, message: "expected an object, found \(value.typeName)"))
            return (nil, nil)
        }
        let before = problems.count
        let known = Set(TypeDeclaration.CodingKeys.allCases.map(\.rawValue))
        for key in object.keys.sorted() where !known.contains(key) {
            problems.append(Problem(field: field(key), message: "unknown field '\(key)'"))
        }

        var identifier: TypeIdentifier?
        switch object["identifier"] {
        case nil:
            problems.append(Problem(field: field("identifier"), message: "missing required field 'identifier'"))
        case .string(let string)?:
            identifier = TypeIdentifier(string)
        case let other?:
            problems.append(Problem(field: field("identifier"), message: "expected a string, found \(other.typeName)"))
        }

        var parents: [String] = []
        if let value = object["conformsTo"] {
            parents = strings(value, path: field("conformsTo"), problems: &problems)
        } else {
            problems.append(Problem(
                field: field("conformsTo"),
                message: "missing required field 'conformsTo' (use [\"public.data\"] or another parent; [] only for a new root)"))
        }
        let mimeTypes = object["mimeTypes"].map { strings($0, path: field("mimeTypes"), problems: &problems) } ?? []
        let extensions = object["filenameExtensions"].map {
            strings($0, path: field("filenameExtensions"), problems: &problems)
        } ?? []

        var magic: [MagicPattern] = []
        switch object["magic"] {
        case nil:
            break
        case .array(let elements)?:
            for (index, element) in elements.enumerated() {
                if let pattern = magicPattern(element, path: field("magic[\(index)]"), problems: &problems) {
                    magic.append(pattern)
                }
            }
        case let other?:
            problems.append(Problem(field: field("magic"), message: "expected an array, found \(other.typeName)"))
        }

        var description: String?
        switch object["description"] {
        case nil, .null?:
            break
        case .string(let string)?:
            description = string
        case let other?:
            problems.append(Problem(field: field("description"), message: "expected a string, found \(other.typeName)"))
        }

        guard problems.count == before, let identifier else { return (nil, identifier) }
        let declaration = TypeDeclaration(
            identifier: identifier, conformsTo: parents.map { TypeIdentifier($0) }, mimeTypes: mimeTypes,
            filenameExtensions: extensions, magic: magic, description: description)
        return (declaration, identifier)
    }

    /// Parses `{"offset": Int, "bytes": "hex"}`.
    static func magicPattern(_ value: JSONValue, path: String, problems: inout [Problem]) -> MagicPattern? {
        guard case .object(let object) = value else {
            problems.append(Problem(field: path, message: "expected an object like {\"offset\": 0, \"bytes\": \"89504e47\"}, found \(value.typeName)"))
            return nil
        }
        let before = problems.count
        for key in object.keys.sorted() where key != "offset" && key != "bytes" {
            problems.append(Problem(field: "\(path).\(key)", message: "unknown field '\(key)'"))
        }
        var offset = 0
        switch object["offset"] {
        case nil:
            break
        case .number(let literal)?:
            // An integer as the protocol writes one: digits only, no fraction or exponent.
            if literal.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }), let number = Int(literal), number <= 1_048_576 {
                offset = number
            } else {
                problems.append(Problem(field: "\(path).offset", message: "expected an integer from 0 to 1048576, found \(literal)"))
            }
        case let other?:
            problems.append(Problem(field: "\(path).offset", message: "expected an integer, found \(other.typeName)"))
        }
        var bytes: [UInt8] = []
        switch object["bytes"] {
        case nil:
            problems.append(Problem(field: "\(path).bytes", message: "missing required field 'bytes'"))
        case .string(let hex)?:
            if let decoded = MagicPattern.bytes(fromHex: hex) {
                bytes = decoded
            } else {
                problems.append(Problem(
                    field: "\(path).bytes",
                    message: "invalid magic hex string '\(hex)': expected a non-empty, even number of hex digits"))
            }
        case let other?:
            problems.append(Problem(field: "\(path).bytes", message: "expected a hex string, found \(other.typeName)"))
        }
        return problems.count == before ? MagicPattern(offset: offset, bytes: bytes) : nil
    }

    /// Parses an array of strings.
    private static func strings(_ value: JSONValue, path: String, problems: inout [Problem]) -> [String] {
        guard case .array(let elements) = value else {
            problems.append(Problem(field: path, message: "expected an array of strings, found \(value.typeName)"))
            return []
        }
        var strings: [String] = []
        for (index, element) in elements.enumerated() {
            if case .string(let string) = element {
                strings.append(string)
            } else {
                problems.append(Problem(field: "\(path)[\(index)]", message: "expected a string, found \(element.typeName)"))
            }
        }
        return strings
    }
}

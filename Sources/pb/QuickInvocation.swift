import Pasteboard
import PasteboardCLI
import PasteboardSystem
import PasteboardTypes

/// pb's quick path: the invocations shell loops run most — `pb paste`, and `pb copy` from
/// stdin or of files, with their everyday options — read without ArgumentParser, and run on
/// the main thread: an async command's main thread leaves through `pthread_exit`, whose first
/// unwind sorts every frame description of the static binary (25 ms of a `pb copy FILE` on the
/// development machine).
///
/// ArgumentParser finds a command's options by reflection, and on a statically linked binary
/// each first use of a type in that reflection scans every protocol conformance record in the
/// binary: under callgrind that was a third of all the instructions of a 16-byte `pb paste`.
/// The quick path accepts only argument vectors whose meaning is beyond doubt (each option in
/// its documented spelling, each value well-formed, nothing given twice); anything else —
/// `--help`, an unknown or repeated option, a bad value, a value that looks like an option —
/// returns nil and goes through ArgumentParser, so every message and error stays its.
enum QuickInvocation {
    case paste(PasteJob)
    case copyStandardInput(pasteboard: String, type: String?, sensitive: Bool)
    case copyFiles(pasteboard: String, type: String?, sensitive: Bool, files: [String])

    /// Recognises `arguments` (without the program name), or returns nil.
    init?(arguments: some Collection<String>) {
        // PASTEBOARD_OSC52 may send the copy or paste to the terminal: `Copy` and `Paste` decide.
        guard let command = arguments.first, !OSC52Setting.mayApplyUnasked else { return nil }
        var reader = Reader(arguments: Array(arguments.dropFirst()))
        switch command {
        case "paste":
            var pasteboard: String?, item: Int?, output: String?, types: [String] = []
            var lines = false, none = false
            while let argument = reader.next() {
                switch argument.name {
                case "-p", "--pasteboard": guard pasteboard == nil, let value = reader.value(of: argument) else { return nil }; pasteboard = value
                case "-t", "--type": guard let value = reader.value(of: argument) else { return nil }; types.append(value)
                case "--item": guard item == nil, let value = reader.value(of: argument).flatMap({ Int($0) }), value >= 0 else { return nil }; item = value
                case "-o", "--output": guard output == nil, let value = reader.value(of: argument) else { return nil }; output = value
                case "--progress": guard !lines, argument.inlineValue == nil else { return nil }; lines = true
                case "--no-progress": guard !none, argument.inlineValue == nil else { return nil }; none = true
                default: return nil
                }
            }
            guard !(lines && none), let name = Self.validName(pasteboard) else { return nil }
            self = .paste(PasteJob(pasteboard: name, types: types, item: item ?? 0, output: output,
                                   progress: ProgressDisplay.mode(lines: lines, none: none)))
        case "copy":
            var pasteboard: String?, type: String?, sensitive = false, files: [String] = []
            while let argument = reader.next() {
                switch argument.name {
                case "-p", "--pasteboard": guard pasteboard == nil, let value = reader.value(of: argument) else { return nil }; pasteboard = value
                case "-t", "--type": guard type == nil, let value = reader.value(of: argument) else { return nil }; type = value
                case "--sensitive": guard !sensitive, argument.inlineValue == nil else { return nil }; sensitive = true
                default:
                    // A file: a plain word (anything starting with `-` is ArgumentParser's to judge).
                    guard !argument.name.hasPrefix("-"), argument.inlineValue == nil, !argument.name.isEmpty else { return nil }
                    files.append(String(argument.name))
                }
            }
            guard let name = Self.validName(pasteboard) else { return nil }
            self = files.isEmpty
                ? .copyStandardInput(pasteboard: name, type: type, sensitive: sensitive)
                : .copyFiles(pasteboard: name, type: type, sensitive: sensitive, files: files)
        default:
            return nil
        }
    }

    /// Runs the invocation on this thread through a `BlockingConnection`: no event loop and no
    /// worker threads to start, which is most of a 16-byte paste's cost. Returns nil when done;
    /// when no daemon answers (none listens, or it closes the connection before its welcome),
    /// returns what is left to do through `PasteboardConnection`, which starts the daemon
    /// (stdin, once read, is carried over).
    func runBlocking() throws -> (@Sendable () async throws -> Void)? {
        switch self {
        case .paste(let job):
            guard let connection = try Self.connect() else { return job.run }
            do {
                try job.run(on: connection)
            } catch PasteboardError.daemonUnreachable {
                return job.run  // closed before its welcome (shutting down): nothing was done
            }
        case .copyStandardInput(let pasteboard, let type, let sensitive):
            // Without -t only the sniffing needs types, and it builds the registry only when the
            // user declares types of their own.
            let explicitType = try type.map { word throws(CLIError) in
                try TypeArguments.copyType(word, registry: TypeArguments.registry().registry)
            }
            var item = try ItemArguments.stdinItem(type: explicitType, streaming: true, sniff: TypeRegistry.sniffWithProcessEnvironment)
            if sensitive { item.isSensitive = true }
            guard try Self.setItems([item], on: pasteboard) != nil else { return { [item] in try await Copy.copy([item], to: pasteboard) } }
        case .copyFiles(let pasteboard, let type, let sensitive, let files):
            let registry = TypeArguments.registry().registry
            let explicitType = try type.map { word throws(CLIError) in try TypeArguments.copyType(word, registry: registry) }
            let items = try ItemArguments.fileItems(files, type: explicitType, registry: registry, streaming: true).map { item in
                var item = item
                if sensitive { item.isSensitive = true }
                return item
            }
            guard try Self.setItems(items, on: pasteboard) != nil else { return { [items] in try await Copy.copy(items, to: pasteboard) } }
        }
        return nil
    }

    /// Puts `items` on `pasteboard` through a blocking connection to a daemon that already
    /// runs; returns the change count, or nil when none answered or it closed before its
    /// welcome (shutting down): nothing was written, and the caller goes through
    /// `PasteboardConnection`, which starts a daemon.
    static func setItems(_ items: [ItemProvider], on pasteboard: String, expiringAfter expiry: Duration? = nil) throws -> Int? {
        guard let connection = try connect() else { return nil }
        do {
            return try connection.setItems(items, on: pasteboard, expiringAfter: expiry)
        } catch PasteboardError.daemonUnreachable {
            return nil
        }
    }

    /// A connection to a daemon that already runs, or nil when none answers. A socket of another
    /// user is an error, not a reason to try again through `PasteboardConnection`.
    static func connect() throws -> BlockingConnection? {
        do {
            return try BlockingConnection(clientName: "pb")
        } catch let error as PasteboardError {
            if case .untrustedSocket = error { throw error }
            return nil
        } catch {
            return nil
        }
    }

    /// The pasteboard name to use (the general one when none was given), or nil when `name` is
    /// not valid (ArgumentParser then reports why).
    private static func validName(_ name: String?) -> String? {
        let name = name ?? PasteboardName.general
        return PasteboardName.validationFailure(name) == nil ? name : nil
    }

    /// Steps through the arguments: `-x VALUE`, `--name VALUE` and `--name=VALUE` only.
    private struct Reader {
        struct Argument {
            let name: Substring
            let inlineValue: Substring?
        }

        let arguments: [String]
        var index = 0

        /// The next option, split at `=` when it is a long one; nil at the end.
        mutating func next() -> Argument? {
            guard index < arguments.count else { return nil }
            let argument = arguments[index][...]
            index += 1
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                return Argument(name: argument[..<equals], inlineValue: argument[argument.index(after: equals)...])
            }
            return Argument(name: argument, inlineValue: nil)
        }

        /// The option's value: inline, else the next argument. Nil when it is missing or looks
        /// like an option (ArgumentParser decides what that means).
        mutating func value(of argument: Argument) -> String? {
            if let inline = argument.inlineValue { return String(inline) }
            guard index < arguments.count, !arguments[index].hasPrefix("-") else { return nil }
            index += 1
            return arguments[index - 1]
        }
    }
}

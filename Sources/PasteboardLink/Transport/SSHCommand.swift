import PasteboardSystem

/// The command a link runs to reach the other machine: the user's ssh (from `--ssh`, else
/// `PASTEBOARD_SSH`, else `ssh`, split into words as rsync splits `-e`: at spaces, with single
/// and double quotes and backslashes as a shell has them), `--`, the destination, and the remote
/// command (`--remote-pb`, default `pb`, then `link --serve` and the options of this end that
/// the other end must share).
public struct SSHCommand: Sendable, Equatable {
    /// The ssh program and its options.
    public var ssh: [String]
    /// `[USER@]HOST`.
    public var destination: String
    /// What runs there (a shell command line: ssh joins its words with spaces).
    public var remote: [String]

    public init(ssh: [String], destination: String, remote: [String]) {
        self.ssh = ssh
        self.destination = destination
        self.remote = remote
    }

    /// The words of `text` as a shell would split them (no expansions); nil for an unclosed quote.
    public static func words(_ text: String) -> [String]? {
        var words: [String] = []
        var word = ""
        var inWord = false
        var quote: Character?
        var escaped = false
        for character in text {
            if escaped {
                word.append(character)
                escaped = false
                inWord = true
                continue
            }
            switch (quote, character) {
            case (nil, "\\"), ("\"", "\\"):
                escaped = true
            case (nil, "'"), (nil, "\""):
                quote = character
                inWord = true
            case ("'", "'"), ("\"", "\""):
                quote = nil
            case (nil, " "), (nil, "\t"), (nil, "\n"):
                if inWord { words.append(word) }
                word = ""
                inWord = false
            default:
                word.append(character)
                inWord = true
            }
        }
        guard quote == nil, !escaped else { return nil }
        if inWord { words.append(word) }
        return words
    }

    /// The ssh words from `option`, else `PASTEBOARD_SSH` in `environment`, else `ssh`.
    public static func sshWords(option: String?, environment: [String: String]) throws(LinkError) -> [String] {
        let text = option ?? environment["PASTEBOARD_SSH"].flatMap { $0.isEmpty ? nil : $0 } ?? "ssh"
        guard let words = words(text), !words.isEmpty else {
            throw LinkError("the ssh command '\(text)' is empty or has an unclosed quote (--ssh, PASTEBOARD_SSH)")
        }
        return words
    }

    /// The whole argument vector.
    public var arguments: [String] { ssh + ["--", destination] + remote }

    /// The program to start: the first word as an absolute path (found on `PATH` when it has no slash).
    public func program(path: String?) throws(LinkError) -> String {
        let first = ssh[0]
        if first.contains("/") { return first }
        guard let found = CompanionExecutable.onPath(first, path: path) else {
            throw LinkError("no '\(first)' on PATH: install OpenSSH's client, or name the ssh command with --ssh or PASTEBOARD_SSH")
        }
        return found
    }
}

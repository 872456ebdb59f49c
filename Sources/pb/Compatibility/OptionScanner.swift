/// Reads a compatibility mode's arguments the way its original reads them, so the spellings
/// scripts use mean the same here: GNU `getopt_long` for wl-clipboard (clustered short options,
/// `-tTYPE`, `--type=TYPE`, unambiguous prefixes of long options, operands anywhere, `--`), the
/// X resource manager's single-dash names with unambiguous prefixes for xclip (`-sel clip`),
/// xsel's split clusters (`-bi` is `-b -i`) and exact spellings for pbcopy and pbpaste.
///
/// An option that is not in the table is an error naming it: a mode never ignores what it does
/// not understand.
struct OptionScanner {
    /// One option the original knows.
    struct Option {
        /// The name reported back (the long name, or the only one).
        let name: String
        /// The single-character spelling (`-p`), if any.
        var short: Character?
        /// Every longer spelling without its dashes (`primary`; xclip's `selection`).
        var long: [String] = []
        /// Whether it takes a value.
        var takesValue = false
        /// Whether its value and every argument after it are a command (wl-paste's `--watch`).
        var takesRest = false
    }

    /// How spellings are matched.
    enum Style {
        /// `getopt_long`: `-abc` clusters, `--name` and unambiguous prefixes, `--name=value`.
        case getopt
        /// The X resource manager's: `-name` or `--name`, or an unambiguous prefix of it.
        case singleDashPrefix
        /// Each spelling exactly as listed (`-Prefer`, `-pboard`); `--` ends the options.
        case exact
        /// xsel 1.2.0's: every argument of more than two characters that starts with one dash
        /// is first split into one option per letter (`-bi` is `-b -i`, `-nb` is `-n -b`), a
        /// value included, as xsel splits its whole argument vector before reading it; then
        /// each spelling is matched exactly, and `--` is no option (xsel refuses it).
        case splitClusters
    }

    /// What the arguments said, in order.
    enum Element: Equatable {
        /// An option, by its `name`, as `spelled`, with its value.
        case option(name: String, spelled: String, value: String?)
        /// An operand (a file, words of text).
        case operand(String)
        /// The command after `takesRest`'s option: its words.
        case rest(name: String, words: [String])
    }

    /// Why the arguments cannot be read.
    enum Problem: Error, Equatable {
        case unknown(String)
        case ambiguous(String, candidates: [String])
        case missingValue(String)
        case unexpectedValue(String)
    }

    let style: Style
    let options: [Option]

    /// The elements of `arguments`, or the first problem.
    func scan(_ arguments: [String]) throws(Problem) -> [Element] {
        let arguments = style == .splitClusters ? Self.splittingClusters(arguments) : arguments
        var elements: [Element] = []
        var index = 0
        var onlyOperands = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyOperands || argument == "-" || !argument.hasPrefix("-") {
                elements.append(.operand(argument))
                continue
            }
            if argument == "--" && (style == .getopt || style == .exact) {
                onlyOperands = true
                continue
            }
            switch style {
            case .getopt where !argument.hasPrefix("--"):
                var characters = argument.dropFirst()
                while let character = characters.first {
                    characters = characters.dropFirst()
                    guard let option = options.first(where: { $0.short == character }) else { throw .unknown("-\(character)") }
                    let spelled = "-\(character)"
                    guard option.takesValue else {
                        elements.append(.option(name: option.name, spelled: spelled, value: nil))
                        continue
                    }
                    let value: String
                    if !characters.isEmpty {
                        value = String(characters)
                        characters = ""
                    } else if index < arguments.count {
                        value = arguments[index]
                        index += 1
                    } else {
                        throw .missingValue(spelled)
                    }
                    if option.takesRest {
                        elements.append(.rest(name: option.name, words: [value] + arguments[index...]))
                        return elements
                    }
                    elements.append(.option(name: option.name, spelled: spelled, value: value))
                }
            default:
                let body = argument.hasPrefix("--") ? argument.dropFirst(2) : argument.dropFirst()
                let equals = style == .getopt ? body.firstIndex(of: "=") : nil
                let word = String(equals.map { body[..<$0] } ?? body)
                let option = try match(word, spelled: argument)
                let spelled = equals.map { String(argument[..<$0]) } ?? argument
                var value: String?
                if let equals {
                    guard option.takesValue else { throw .unexpectedValue(spelled) }
                    value = String(body[body.index(after: equals)...])
                } else if option.takesValue {
                    guard index < arguments.count else { throw .missingValue(spelled) }
                    value = arguments[index]
                    index += 1
                }
                if option.takesRest, let value {
                    elements.append(.rest(name: option.name, words: [value] + arguments[index...]))
                    return elements
                }
                elements.append(.option(name: option.name, spelled: spelled, value: value))
            }
        }
        return elements
    }

    /// The option `word` (without dashes) names: an exact spelling, else (except in `.exact`
    /// and `.splitClusters`) the only one it is a prefix of.
    private func match(_ word: String, spelled: String) throws(Problem) -> Option {
        let exactShort = word.count == 1 ? options.first(where: { $0.short == word.first }) : nil
        if style == .exact || style == .splitClusters {
            if !spelled.hasPrefix("--"), let exactShort { return exactShort }
            if let option = options.first(where: { $0.long.contains(word) }) { return option }
            throw .unknown(spelled)
        }
        if style == .singleDashPrefix, let exactShort { return exactShort }
        if let option = options.first(where: { $0.long.contains(word) }) { return option }
        guard !word.isEmpty else { throw .unknown(spelled) }
        let candidates = options.filter { option in option.long.contains { $0.hasPrefix(word) } }
        guard let first = candidates.first else { throw .unknown(spelled) }
        guard candidates.count == 1 else {
            throw .ambiguous(spelled, candidates: candidates.compactMap { option in option.long.first { $0.hasPrefix(word) } })
        }
        return first
    }

    /// `arguments` with each `-abc` (one dash, more than one letter) split into `-a -b -c`, as
    /// xsel's `expand_argv` does; everything else as it is.
    static func splittingClusters(_ arguments: [String]) -> [String] {
        arguments.flatMap { argument -> [String] in
            guard argument.count > 2, argument.hasPrefix("-"), !argument.hasPrefix("--") else { return [argument] }
            return argument.dropFirst().map { "-\($0)" }
        }
    }
}

extension OptionScanner {
    /// The elements of `arguments`, or the failure `tool` reports for the first problem.
    func scan(_ arguments: [String], for tool: CompatibilityTool) throws(CompatibilityFailure) -> [Element] {
        do { return try scan(arguments) } catch { throw error.failure(tool) }
    }
}

extension OptionScanner.Problem {
    /// The failure `tool` reports for it.
    func failure(_ tool: CompatibilityTool) -> CompatibilityFailure {
        switch self {
        case .unknown(let option):
            return .unsupported(tool, option: option)
        case .ambiguous(let option, let candidates):
            return .usage(tool, "option '\(option)' is ambiguous (it could be \(candidates.map { "-\($0)" }.joined(separator: ", ")))")
        case .missingValue(let option):
            return .usage(tool, "option '\(option)' needs a value")
        case .unexpectedValue(let option):
            return .usage(tool, "option '\(option)' takes no value")
        }
    }
}

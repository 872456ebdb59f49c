import PasteboardCLI

/// What one of the tools pb stands in for does differently from the others: its option table
/// and help, what each option it reads means, and what it then does. Everything else is the
/// same for all six and is done once, by `run(_:)`: scanning the arguments the way the original
/// scans them (a scanner's problem becomes the tool's failure), `help` and `version` (the
/// first one given is printed, but only once every other argument was read and checked, so a
/// mistake next to `--help` is still reported), refusing in the tool's words what the mode does
/// not take, and then running it.
protocol CompatibilityMode {
    /// The tool whose name started pb: its words in messages, its `--version` line.
    static var tool: CompatibilityTool { get }
    /// The original's options, with the spellings it accepts.
    static var options: OptionScanner { get }
    /// What `help` prints.
    static var help: String { get }

    /// The mode before any argument: the original's defaults.
    init()

    /// Takes one option or operand in the order given (never `help` or `version`); false when
    /// the mode has no use for it: an option it does not support, or an operand where the
    /// original takes none. Throws for a value the original refuses.
    mutating func take(_ element: OptionScanner.Element) throws -> Bool

    /// Checks the arguments as a whole once each is taken (options that exclude each other, a
    /// default that depends on the terminal). Nothing by default.
    mutating func finish() throws

    /// Does what the arguments asked.
    func run() async throws
}

extension CompatibilityMode {
    mutating func finish() throws {}

    /// Reads `arguments` (without the program name) as the original does, then prints the help
    /// or version asked for, or runs the mode.
    static func run(_ arguments: [String]) async throws {
        var mode = Self()
        var informational: String?
        for element in try options.scan(arguments, for: tool) {
            switch element {
            case .option(name: "help", _, _): informational = informational ?? help
            case .option(name: "version", _, _): informational = informational ?? tool.versionText
            default:
                guard try mode.take(element) else { throw refusal(of: element) }
            }
        }
        try mode.finish()
        if let informational {
            return tool.printsInformationToStandardError ? Output.printError(informational) : Output.printOut(informational)
        }
        try await mode.run()
    }

    /// The failure for an element the mode does not take: an operand is unexpected, an option
    /// is named as not supported (never silently ignored).
    private static func refusal(of element: OptionScanner.Element) -> CompatibilityFailure {
        switch element {
        case .operand(let word): .usage(tool, "unexpected argument: \(word)")
        case .option(_, let spelled, _), .rest(let spelled, _): .unsupported(tool, option: spelled)
        }
    }
}

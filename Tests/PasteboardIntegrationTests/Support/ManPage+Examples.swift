extension ManPage {
    /// The code of each `.EX` … `.EE` block in the section `.SH title`, as the page prints it
    /// (roff's escapes undone), its lines joined with newlines and ending in one: what a test
    /// compares with the README's block of the same set-up.
    func examples(inSection title: String) -> [String] {
        var examples: [String] = []
        var open: [String]?
        for line in section(title) {
            if var block = open {
                if line == ".EE" {
                    examples.append(block.joined(separator: "\n") + "\n")
                    open = nil
                } else {
                    block.append(SwiftSnippet.unescapingRoff(line))
                    open = block
                }
            } else if line == ".EX" {
                open = []
            }
        }
        return examples
    }
}

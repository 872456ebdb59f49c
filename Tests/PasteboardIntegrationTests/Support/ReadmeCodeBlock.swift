import Foundation

/// A fenced code block of README.md, found by its language within one section: the set-ups the
/// README gives users to paste into their own configuration (an editor's, a multiplexer's) are
/// what the tests run, so the two cannot drift apart.
enum ReadmeCodeBlock {
    /// The lines of the first ```` ```language ```` block under the heading `section` (a whole
    /// heading line such as `## Editors and tmux`), up to the next heading of the same level,
    /// joined with newlines and ending in one.
    static func text(language: String, inSection section: String) throws -> String {
        let readme = ClientPackage.repository.appendingPathComponent("README.md").path
        let lines = try String(contentsOfFile: readme, encoding: .utf8).components(separatedBy: "\n")
        let level = section.prefix { $0 == "#" } + " "
        guard let start = lines.firstIndex(of: section) else { throw Missing(description: "README.md has no heading '\(section)'") }
        var code: [String]?
        for line in lines[(start + 1)...] {
            if var block = code {
                if line.trimmingCharacters(in: .whitespaces) == "```" { return block.joined(separator: "\n") + "\n" }
                block.append(line)
                code = block
            } else if line.hasPrefix(level) {
                break
            } else if line.trimmingCharacters(in: .whitespaces) == "```" + language {
                code = []
            }
        }
        throw Missing(description: "README.md's '\(section)' has no complete ```\(language) block")
    }

    /// The block the test needs is not in the README (a test failure, not a skip).
    struct Missing: Error, CustomStringConvertible {
        let description: String
    }
}

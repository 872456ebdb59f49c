import Foundation
import XCTest

/// A password store of the test's own for Debian's `pass`: a throwaway GnuPG key without a
/// passphrase in the sandbox (`GNUPGHOME`), the store beside it (`PASSWORD_STORE_DIR`), one
/// entry inserted. Nothing of the developer's keys or passwords is read or touched.
struct PasswordStore {
    let gnupgHome: String
    let directory: String
    /// The entry's name (`pass -c NAME`).
    let entry = "web"

    static var isInstalled: Bool {
        ["/usr/bin/pass", "/usr/bin/gpg", "/usr/bin/gpgconf"].allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Makes the key, the store and the entry holding `password`; skips the test without pass.
    init(in sandbox: Sandbox, password: String) throws {
        guard Self.isInstalled else { throw XCTSkip("pass and gnupg are not installed (.ci/run installs them)") }
        gnupgHome = sandbox.path("gnupg")
        directory = sandbox.path("password-store")
        try FileManager.default.createDirectory(atPath: gnupgHome, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let environment = self.environment(sandbox.environment(), clipSeconds: 45)
        for (tool, arguments, input) in [
            ("/usr/bin/gpg", ["--batch", "--passphrase", "", "--quick-gen-key", "Pasteboard Test <pass-test@example.invalid>", "default", "default", "never"], ""),
            ("/usr/bin/pass", ["init", "pass-test@example.invalid"], ""),
            ("/usr/bin/pass", ["insert", "-m", entry], password + "\n"),
        ] {
            let result = try runTool(tool, arguments, stdin: Data(input.utf8), environment: environment, in: sandbox)
            guard result.status == 0 else { throw XCTSkip("\(tool) \(arguments.first ?? "") failed: \(result.stderr)") }
        }
    }

    /// `base` with the store's variables: pass clears (restores) the clipboard `clipSeconds`
    /// after `pass -c`.
    func environment(_ base: [String: String], clipSeconds: Int) -> [String: String] {
        var environment = base
        environment["GNUPGHOME"] = gnupgHome
        environment["PASSWORD_STORE_DIR"] = directory
        environment["PASSWORD_STORE_CLIP_TIME"] = String(clipSeconds)
        return environment
    }

    /// The process in which `pass -c` waits before it puts the clipboard back ("password store
    /// sleep on display …", its argv[0]); nil when none waits.
    func sleeper() -> pid_t? {
        ProcessTree.processes(environment: "PASSWORD_STORE_DIR=\(directory)") { $0.first?.hasPrefix("password store sleep on display") == true }.first
    }

    /// Stops the store's gpg-agent, which gpg started for it.
    func stopAgent(sandbox: Sandbox) {
        _ = try? runTool("/usr/bin/gpgconf", ["--kill", "gpg-agent"], environment: environment(sandbox.environment(), clipSeconds: 45), in: sandbox)
    }
}

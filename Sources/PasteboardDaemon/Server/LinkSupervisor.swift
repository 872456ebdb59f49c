#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
package import Logging
import PasteboardSystem
import ServiceLifecycle

/// Keeps the links the configuration names (`link = HOST ...`) up: one `pb link` child per
/// machine, which runs ssh and starts it again with its own back-off when the link drops. A
/// child rather than code in the daemon, like the desktop bridge: the daemon links no link
/// code, and what ssh and the other machine do never stalls it. Each child has a lifeline (it
/// exits when the daemon does, however the daemon ends) and is sent SIGTERM at graceful
/// shutdown; one that ends anyway (a crash, killed) is started again after 1 s, doubling to
/// 60 s, short again once a run lasted a minute.
package struct LinkSupervisor: Service, CustomStringConvertible {
    let configuration: DaemonConfiguration
    let environment: [String: String]
    let logger: Logger

    package init(configuration: DaemonConfiguration, environment: [String: String], logger: Logger) {
        self.configuration = configuration
        self.environment = environment
        self.logger = logger
    }

    package var description: String { "LinkSupervisor" }

    package func run() async throws {
        guard !configuration.links.isEmpty else { return }
        guard let pb = CompanionExecutable.locate("pb", path: environment["PATH"]) else {
            logger.error("cannot keep the configured links: pb was found neither next to pasteboardd nor on PATH",
                         metadata: ["links": "\(configuration.links.joined(separator: " "))"])
            return
        }
        await withDiscardingTaskGroup { group in
            for destination in configuration.links {
                group.addTask { await keep(destination, pb: pb) }
            }
        }
    }

    /// The arguments of the `pb link` child for `destination`.
    func arguments(_ pb: String, destination: String) -> [String] {
        var arguments = [pb, "link", "--lifeline", "\(BridgeLifeline.childDescriptor)", "--capture", "\(configuration.linkCapture)"]
        for name in configuration.linkPasteboards { arguments += ["--share", name] }
        if configuration.linkSensitive { arguments.append("--sensitive") }
        if let ssh = configuration.linkSSH { arguments += ["--ssh", ssh] }
        if let remote = configuration.linkRemotePB { arguments += ["--remote-pb", remote] }
        return arguments + ["--", destination]
    }

    private func keep(_ destination: String, pb: String) async {
        var childEnvironment = environment
        // The child links this daemon, wherever its socket is.
        childEnvironment["PASTEBOARD_SOCKET"] = configuration.socketPath
        await SupervisedChild.keepRunning(
            pb, arguments(pb, destination: destination), environment: childEnvironment, logger: logger, what: "the link",
            metadata: ["to": "\(destination)"])
    }
}

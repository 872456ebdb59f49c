import Logging
import PasteboardTypes

/// Reloads the user's type declarations (`types.d`, pasteboard-types(5)) into the running
/// daemon, on SIGHUP beside the configuration file, and like it all or nothing: when a file has
/// a problem, each one is logged and the daemon keeps every declaration it had. Otherwise the
/// files' declarations replace those read before, and the apps' declarations stay, but for those
/// of a type a file now declares (the file wins) or that no longer fit; each one dropped is
/// logged, naming the type, the app and why (see `SharedTypeRegistry.replaceFiles`).
struct TypesReloader: Sendable {
    let store: PasteboardStore
    /// The environment that locates `types.d` and the shared-mime-info databases (read again
    /// when first needed after a reload).
    let environment: [String: String]
    let logger: Logger

    /// Loads `types.d` again and applies it; false, with the problems logged, when any file has one.
    @discardableResult
    func reload() -> Bool {
        let directory = TypeRegistry.userTypesDirectory(environment: environment) ?? "none"
        let (files, errors) = TypeRegistry.loading(environment: environment)
        guard errors.isEmpty else {
            for error in errors {
                logger.error("types not reloaded: \(error)")
            }
            logger.error("types not reloaded; the running declarations stay", metadata: ["directory": "\(directory)", "problems": "\(errors.count)"])
            return false
        }
        let reload = store.replaceFileTypes(with: files)
        for dropped in reload.dropped {
            logger.warning("app type declaration dropped: \(dropped.reason)", metadata: ["type": "\(dropped.type)", "app": "\(dropped.app)"])
        }
        for type in reload.adopted {
            logger.info("app type declaration now a file's: the file declares it the same way", metadata: ["type": "\(type)"])
        }
        let fileTypes = files.declarationsInOrder.count { files.source(of: $0.identifier) != "built-in" }
        logger.notice("types reloaded", metadata: ["directory": "\(directory)", "declarations": "\(fileTypes)"])
        return true
    }
}

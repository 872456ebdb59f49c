import PasteboardCLI
import PasteboardDesktopTypes
import PasteboardTypes

/// `pb types --desktop`: the mapping between the desktop clipboard's offered names and types,
/// as the bridge applies it (see `DesktopTypeMapping`).
struct DesktopTypesListing {
    let mapping: DesktopTypeMapping

    /// The whole table, or what one offered name becomes.
    func print(offered name: String?) throws {
        if let name {
            try printOne(name)
            return
        }
        try Output.printLine("plain text (public.utf8-plain-text), fetched by the first offered of:")
        for (target, conversion) in DesktopTypeMapping.plainTextTargets {
            try Output.printLine("  \(target)" + (conversion == .latin1ToUTF8 ? "  (ISO 8859-1, converted to UTF-8)" : ""))
        }
        try Output.printLine("files: x-special/gnome-copied-files -> public.file-url (as a text/uri-list); text/uri-list -> public.file-url beside it, else public.url")
        try Output.printLine("secrets: \(DesktopTypeMapping.concealedTarget) -> \(DesktopTypeMapping.concealedTarget); x-kde-passwordManagerHint -> org.kde.password-manager-hint (secret when its value is 'secret')")
        try Output.printLine("other MIME types: the declared type with that MIME type, else a dynamic type (dyn.mime.TYPE/SUBTYPE)")
        try Output.printLine("ignored (plumbing): " + DesktopTypeMapping.plumbingTargets.sorted().joined(separator: " "))
        try Output.printLine("ignored: other names without a slash that no declaration lists")
    }

    private func printOne(_ name: String) throws {
        if DesktopTypeMapping.plumbingTargets.contains(name) {
            try Output.printLine("\(name)  (plumbing: never a representation)")
            return
        }
        let offer = mapping.representations(forOffered: [name])
        guard let representation = offer.representations.first else {
            throw CLIError.failure("'\(name)' maps to no type: an X11 name no declaration lists (see pb types --desktop)")
        }
        let conversion = switch representation.conversion {
        case .none: ""
        case .latin1ToUTF8: "  (ISO 8859-1, converted to UTF-8)"
        case .gnomeCopiedFilesToURIList: "  (converted to a text/uri-list)"
        }
        try Output.printLine("\(name) -> \(representation.type.rawValue)\(conversion)")
    }
}

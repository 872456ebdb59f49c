extension X11Request {
    /// QueryExtension (98): whether the server has extension `name`, its major opcode and
    /// its first event and error codes.
    public static func queryExtension(_ name: String) throws(X11Error) -> X11Request {
        let bytes = Array(name.utf8)
        try checkLength(bytes.count, "extension name")
        return core("QueryExtension", opcode: 98, expectsReply: true) { writer in
            writer.u16(UInt16(bytes.count))
            writer.zeros(2)
            writer.append(bytes)
            writer.pad()
        }
    }
}

/// The XFIXES extension's requests (XFIXES protocol spec, version 5): only what selection
/// watching needs. `majorOpcode` comes from QueryExtension.
public enum XFixes {
    public static let name = "XFIXES"

    /// Which selection events SelectSelectionInput asks for.
    public struct SelectionEventMask: OptionSet, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        public static let setSelectionOwner = SelectionEventMask(rawValue: 1)
        public static let selectionWindowDestroy = SelectionEventMask(rawValue: 2)
        public static let selectionClientClose = SelectionEventMask(rawValue: 4)
        public static let all: SelectionEventMask = [.setSelectionOwner, .selectionWindowDestroy, .selectionClientClose]
    }

    /// QueryVersion (minor 0): must precede any other XFIXES request; we ask for 5.0 and need 1.
    public static func queryVersion(majorOpcode: UInt8, clientMajor: UInt32 = 5, clientMinor: UInt32 = 0) -> X11Request {
        X11Request.core("XFixesQueryVersion", opcode: majorOpcode, data: 0, expectsReply: true) { writer in
            writer.u32(clientMajor)
            writer.u32(clientMinor)
        }
    }

    /// SelectSelectionInput (minor 2): XFixesSelectionNotify events to `window` whenever
    /// `selection` changes owner in the ways `mask` names.
    public static func selectSelectionInput(majorOpcode: UInt8, window: WindowID, selection: Atom, mask: SelectionEventMask) -> X11Request {
        X11Request.core("XFixesSelectSelectionInput", opcode: majorOpcode, data: 2, expectsReply: false) { writer in
            writer.u32(window.rawValue)
            writer.u32(selection.rawValue)
            writer.u32(mask.rawValue)
        }
    }
}

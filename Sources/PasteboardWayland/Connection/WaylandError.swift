#if canImport(Glibc)
import Glibc
#endif
import PasteboardSystem

/// Everything that ends a Wayland connection or one transfer, each saying what happened in
/// terms a user can act on (which socket, which object, which MIME type).
public enum WaylandError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `WAYLAND_DISPLAY` names a socket relative to `XDG_RUNTIME_DIR`, which is not set.
    case missingRuntimeDirectory(display: String)
    /// The socket's path does not fit a Unix socket address (108 bytes with the NUL).
    case socketPathTooLong(path: String)
    case cannotConnect(path: String, errno: Int32)
    case connectionLost(errno: Int32)
    /// The compositor closed the connection.
    case connectionClosed
    /// The compositor sent bytes that are not a well-formed message.
    case malformed(WireError)
    /// `wl_display.error`: the compositor reports a fatal protocol error and closes the connection.
    case protocolError(objectID: UInt32, interface: String, code: UInt32, message: String)
    /// An event for an object id we never had, or an opcode its interface does not have.
    case unexpectedEvent(objectID: UInt32, opcode: UInt16)
    /// The compositor advertises no `wl_seat`, and data-control devices are per seat.
    case noSeat
    /// The compositor offers neither `ext_data_control_manager_v1` nor
    /// `zwlr_data_control_manager_v1` (GNOME before data-control, weston).
    case noDataControl
    /// The compositor did not answer within the time given (a roundtrip during set-up).
    case timedOut(waitingFor: String)
    /// The data-control device was invalidated (`finished`), e.g. because its seat went away.
    case deviceFinished
    /// There is no selection of that kind at the moment.
    case noSelection(SelectionKind)
    /// The selection does not offer that MIME type.
    case mimeTypeNotOffered(String, offered: [String])
    /// The offer was replaced by a newer selection before the read started.
    case offerReplaced
    /// The owner neither wrote nor closed the pipe within the time given.
    case transferTimedOut(mimeType: String, bytesReceived: Int)
    /// The owner went away (its offer was withdrawn) before it wrote anything.
    case ownerGone(mimeType: String)
    /// A pipe for a transfer could not be made or read.
    case pipeFailed(errno: Int32)
    /// The session has no data-control device yet (set-up not finished).
    case notReady
    /// A source must offer at least one MIME type (a selection nobody can read is no selection).
    case noMIMETypes
    /// A MIME type to offer is empty or longer than ``SourceLimits/maxMIMETypeLength`` bytes.
    case invalidMIMEType(String)
    /// The primary selection is asked for on zwlr data control version 1, which lacks it.
    case primarySelectionUnsupported
    /// The reader of a send closed its end before taking everything (`wl-paste | head`): the
    /// end of that transfer, not a failure of the source.
    case readerClosed(mimeType: String, bytesWritten: Int)
    /// The reader of a send took nothing for the time given while the pipe was full: that
    /// transfer is abandoned so the provider stops producing for nobody.
    case readerStalled(mimeType: String, bytesWritten: Int)
    /// A write to a send's descriptor failed otherwise, or came after the transfer ended.
    case sendFailed(mimeType: String, errno: Int32)
    /// The compositor lacks a global a window of ours needs (`wl_compositor`, `wl_shm`,
    /// `xdg_wm_base`, `wl_seat`, or `wl_data_device_manager` at version 3, which has drag
    /// actions), or the version it offers is too old.
    case missingGlobal(interface: String, version: UInt32)
    /// The shared memory for a window's pixels could not be made.
    case sharedMemoryFailed(errno: Int32)
    /// The drop asked of is no longer held (finished, or never dropped), or lacks the type.
    case dropNotHeld(mimeType: String)

    public var description: String {
        switch self {
        case .missingRuntimeDirectory(let display):
            "WAYLAND_DISPLAY=\(display) is relative to XDG_RUNTIME_DIR, which is not set"
        case .socketPathTooLong(let path):
            "the Wayland socket path \(path) is too long for a Unix socket"
        case .cannotConnect(let path, let errno):
            "cannot connect to the Wayland compositor at \(path): \(Self.reason(errno))"
        case .connectionLost(let errno):
            "the connection to the Wayland compositor failed: \(Self.reason(errno))"
        case .connectionClosed:
            "the Wayland compositor closed the connection"
        case .malformed(let error):
            "the Wayland compositor sent a malformed message: \(error)"
        case .protocolError(let objectID, let interface, let code, let message):
            "Wayland protocol error on \(interface)@\(objectID), code \(code): \(message)"
        case .unexpectedEvent(let objectID, let opcode):
            "the Wayland compositor sent event \(opcode) for object \(objectID), which has no such event"
        case .noSeat:
            "the Wayland compositor has no seat"
        case .noDataControl:
            "the Wayland compositor offers no data-control protocol (neither ext_data_control_manager_v1 nor zwlr_data_control_manager_v1), so the clipboard cannot be bridged"
        case .timedOut(let what):
            "the Wayland compositor did not answer in time (\(what))"
        case .deviceFinished:
            "the Wayland data-control device was invalidated by the compositor"
        case .noSelection(let kind):
            "there is no Wayland \(kind) selection"
        case .mimeTypeNotOffered(let mimeType, let offered):
            "the Wayland selection does not offer \(mimeType) (it offers \(offered.joined(separator: ", ")))"
        case .offerReplaced:
            "the Wayland selection changed before the read started"
        case .transferTimedOut(let mimeType, let bytes):
            "the Wayland selection owner did not answer in time for \(mimeType) (\(bytes) bytes received)"
        case .ownerGone(let mimeType):
            "the Wayland selection owner went away before sending \(mimeType)"
        case .pipeFailed(let errno):
            "a pipe for a Wayland transfer failed: \(Self.reason(errno))"
        case .notReady:
            "the Wayland data-control device is not set up yet"
        case .noMIMETypes:
            "a Wayland selection source needs at least one MIME type"
        case .invalidMIMEType(let mimeType):
            "cannot offer the MIME type \"\(mimeType.prefix(80))\" on Wayland: it is empty or longer than \(SourceLimits.maxMIMETypeLength) bytes"
        case .primarySelectionUnsupported:
            "the Wayland compositor's data control (zwlr version 1) has no primary selection"
        case .readerClosed(let mimeType, let bytes):
            "the Wayland reader of \(mimeType) closed its pipe after \(bytes) bytes"
        case .readerStalled(let mimeType, let bytes):
            "the Wayland reader of \(mimeType) stopped reading after \(bytes) bytes; the transfer was abandoned"
        case .sendFailed(let mimeType, let errno):
            "writing \(mimeType) to a Wayland reader failed: \(Self.reason(errno))"
        case .missingGlobal(let interface, let version):
            "the Wayland compositor offers no \(interface) of version \(version) or later, which a drag handle or drop zone needs"
        case .sharedMemoryFailed(let errno):
            "cannot make shared memory for a window's pixels: \(Self.reason(errno))"
        case .dropNotHeld(let mimeType):
            "the Wayland drop is no longer held, or does not offer \(mimeType)"
        }
    }

    private static func reason(_ errno: Int32) -> String {
        SystemError.describe(errno)
    }
}

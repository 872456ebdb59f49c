import Foundation
import XCTest

/// A small X11 application written with python-xlib (no packaged tool hands its data over at
/// exit): it owns CLIPBOARD offering the targets it is given (whole, or through INCR above
/// 64 KiB), and on SIGUSR1 does what GTK and Qt do at exit — converts `CLIPBOARD_MANAGER` to
/// `SAVE_TARGETS` (listing its targets, or with no list), serves the manager's conversions, and
/// waits for the answer. Its exit status says what happened:
/// 0 the manager answered with a property (the data is kept), 4 it refused (None),
/// 3 no clipboard manager, 5 no answer within 30 s, 6 answered before the INCR transfers ended,
/// 2 CLIPBOARD could not be taken.
final class X11OwnerPeer {
    /// How the peer asks the manager to save.
    enum SaveRequest: String {
        /// Its targets listed in the request's property.
        case listed
        /// No property: the manager reads TARGETS.
        case all
    }

    let process: ToolProcess

    /// Whether Debian's python3 with python-xlib is installed.
    static var isAvailable: Bool { DebianPython.runs("import Xlib") }

    /// Starts the peer on `display` owning CLIPBOARD with `targets` (name, bytes) in order, and
    /// waits until it owns it; skips when python3-xlib is missing.
    /// `authority` is the cookie file of a server that demands one (`XAUTHORITY`).
    init(display: String, targets: [(String, Data)], save: SaveRequest = .listed, authority: String? = nil, sandbox: Sandbox) throws {
        guard Self.isAvailable else { throw XCTSkip("python3 with python-xlib is not installed (apt-get install python3-xlib)") }
        let directory = sandbox.path("peer-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let script = directory + "/peer.py"
        try Self.script.write(toFile: script, atomically: true, encoding: .utf8)
        var listed: [[String]] = []
        for (index, (name, bytes)) in targets.enumerated() {
            let path = directory + "/target-\(index)"
            try bytes.write(to: URL(fileURLWithPath: path))
            listed.append([name, path])
        }
        let spec = directory + "/spec.json"
        try JSONSerialization.data(withJSONObject: ["display": display, "targets": listed, "save": save.rawValue]).write(to: URL(fileURLWithPath: spec))
        var environment = sandbox.environment()
        environment.removeValue(forKey: "DISPLAY")
        if let authority { environment["XAUTHORITY"] = authority }
        process = try ToolProcess("/usr/bin/python3", [script, spec], environment: environment, in: sandbox)
        guard process.waitForLine(where: { $0 == "owning" }) != nil else {
            process.stop()
            throw XCTSkip("the python-xlib peer did not take CLIPBOARD: \(process.stderrLines.joined(separator: "\n"))")
        }
    }

    /// Quits as an application does: hands its data over, then exits; returns its status.
    func quit() -> Int32? {
        process.signal(SIGUSR1)
        return process.waitForExit(timeout: 60)
    }

    func stop() { process.stop() }

    private static let script = #"""
import json, os, select, signal, sys, time
from Xlib import X, Xatom, display
from Xlib.protocol import event

spec = json.load(open(sys.argv[1]))
d = display.Display(spec["display"])
w = d.screen().root.create_window(0, 0, 1, 1, 0, X.CopyFromParent, X.InputOnly, X.CopyFromParent, event_mask=X.PropertyChangeMask)
atom = d.intern_atom
CLIPBOARD, MANAGER, SAVE_TARGETS = atom("CLIPBOARD"), atom("CLIPBOARD_MANAGER"), atom("SAVE_TARGETS")
TARGETS, TIMESTAMP, INCR, STAMP, SAVE_LIST = atom("TARGETS"), atom("TIMESTAMP"), atom("INCR"), atom("PEER_STAMP"), atom("PEER_SAVE_LIST")
order = [atom(name) for name, _ in spec["targets"]]
data = {atom(name): open(path, "rb").read() for name, path in spec["targets"]}
CHUNK = 64 * 1024

w.change_property(STAMP, Xatom.INTEGER, 32, [], X.PropModeAppend)
d.flush()
while True:
    e = d.next_event()
    if e.type == X.PropertyNotify and e.window.id == w.id and e.atom == STAMP:
        owned_at = e.time
        break
w.set_selection_owner(CLIPBOARD, owned_at)
owner = d.get_selection_owner(CLIPBOARD)
if owner == X.NONE or owner.id != w.id:
    sys.exit(2)
print("owning", file=sys.stderr, flush=True)

transfers = {}  # (requestor window id, property) -> [window, type, bytes, offset]

def notify(request, prop):
    answer = event.SelectionNotify(time=request.time, requestor=request.requestor, selection=request.selection, target=request.target, property=prop)
    request.requestor.send_event(answer, event_mask=0)

def serve(request):
    prop = request.property or request.target
    requestor = request.requestor
    if request.selection != CLIPBOARD:
        return notify(request, X.NONE)
    if request.target == TARGETS:
        requestor.change_property(prop, Xatom.ATOM, 32, [TARGETS, TIMESTAMP, SAVE_TARGETS] + order)
    elif request.target == TIMESTAMP:
        requestor.change_property(prop, Xatom.INTEGER, 32, [owned_at])
    elif request.target in data:
        payload = data[request.target]
        if len(payload) <= CHUNK:
            requestor.change_property(prop, request.target, 8, payload)
        else:
            requestor.change_attributes(event_mask=X.PropertyChangeMask)
            requestor.change_property(prop, INCR, 32, [len(payload)])
            transfers[(requestor.id, prop)] = [requestor, request.target, payload, 0]
    else:
        return notify(request, X.NONE)
    notify(request, prop)

def next_chunk(e):
    key = (e.window.id, e.atom)
    transfer = transfers.get(key)
    if transfer is None or e.state != X.PropertyDelete:
        return
    requestor, kind, payload, offset = transfer
    piece = payload[offset:offset + CHUNK]
    requestor.change_property(e.atom, kind, 8, piece)
    if not piece:
        del transfers[key]
    else:
        transfer[3] = offset + len(piece)

wake_read, wake_write = os.pipe()
os.set_blocking(wake_write, False)
signal.set_wakeup_fd(wake_write)
signal.signal(signal.SIGUSR1, lambda *_: None)
deadline = None

def handle(e):
    if e.type == X.SelectionRequest:
        serve(e)
    elif e.type == X.PropertyNotify:
        next_chunk(e)
    elif e.type == X.SelectionNotify and e.selection == MANAGER:
        if e.property == X.NONE:
            print("refused", file=sys.stderr, flush=True)
            sys.exit(4)
        if transfers:
            sys.exit(6)
        print("saved", file=sys.stderr, flush=True)
        sys.exit(0)

while True:
    # A flush may read events into python-xlib's queue too: wait on the socket only when that
    # queue is empty.
    d.flush()
    if d.pending_events():
        handle(d.next_event())
        continue
    timeout = None if deadline is None else max(0, deadline - time.monotonic())
    ready, _, _ = select.select([d.fileno(), wake_read], [], [], timeout)
    if deadline is not None and time.monotonic() >= deadline:
        sys.exit(5)
    if wake_read in ready:
        os.read(wake_read, 64)
        if deadline is None:
            if d.get_selection_owner(MANAGER) == X.NONE:
                sys.exit(3)
            if spec["save"] == "listed":
                w.change_property(SAVE_LIST, Xatom.ATOM, 32, order)
            else:
                w.delete_property(SAVE_LIST)
            w.convert_selection(MANAGER, SAVE_TARGETS, SAVE_LIST, X.CurrentTime)
            deadline = time.monotonic() + 30
"""#
}

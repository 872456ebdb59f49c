#!/usr/bin/python3
"""An X11 client that misbehaves on purpose, for the desktop bridge's tests (python-xlib).

Usage: hostile_x11_peer.py DISPLAY MODE [ARGUMENT]

Modes (each prints "ready" on stderr once it is in place, then runs until killed unless said):
  targets-endless          owns CLIPBOARD and answers TARGETS through INCR with chunk after
                           chunk of atoms, never the final empty chunk
  targets-drip SECONDS     owns CLIPBOARD and answers TARGETS through INCR one byte every
                           SECONDS, never finishing
  targets-bad-atoms TEXT   owns CLIPBOARD offering TARGETS that name two atoms which do not
                           exist besides UTF8_STRING (TEXT)
  forge-clear              sends a forged SelectionClear (SendEvent) to the owner of
                           CLIPBOARD_MANAGER, prints "sent" and exits
  convert-flood COUNT      asks the CLIPBOARD owner COUNT times to convert UTF8_STRING into
                           properties of its window that it never reads
  multiple-empty           asks the CLIPBOARD owner for MULTIPLE with an empty ATOM_PAIR list,
                           prints the property the SelectionNotify names (or None) and exits
  multiple-twice           asks the CLIPBOARD owner twice for MULTIPLE (UTF8_STRING into the same
                           property), never reading the first answer's INCR chunks; prints
                           "notified" for each SelectionNotify and exits after the second
  xdnd-drop-vanish WINDOW  drags text onto WINDOW (a drop zone) by XDND and drops, without ever
                           owning XdndSelection; prints "finished SUCCESS" with the bit of the
                           XdndFinished that comes back, and exits
  xdnd-drop-stall WINDOW   the same, owning XdndSelection but never answering a conversion
  xdnd-bad-atoms WINDOW    the same, offering a type that is no atom (0x3ffffff0)
"""
import os
import sys
import time

from Xlib import X, Xatom, display
from Xlib.protocol import event

d = display.Display(sys.argv[1])
mode = sys.argv[2]
argument = sys.argv[3] if len(sys.argv) > 3 else None
w = d.screen().root.create_window(0, 0, 1, 1, 0, X.CopyFromParent, X.InputOnly, X.CopyFromParent,
                                  event_mask=X.PropertyChangeMask)
atom = d.intern_atom
CLIPBOARD, TARGETS, INCR, UTF8 = atom("CLIPBOARD"), atom("TARGETS"), atom("INCR"), atom("UTF8_STRING")


def ready():
    print("ready", file=sys.stderr, flush=True)


def own_clipboard():
    w.set_selection_owner(CLIPBOARD, X.CurrentTime)
    d.sync()
    owner = d.get_selection_owner(CLIPBOARD)
    if owner == X.NONE or owner.id != w.id:
        sys.exit(2)


def notify(request, prop):
    answer = event.SelectionNotify(time=request.time, requestor=request.requestor, selection=request.selection,
                                   target=request.target, property=prop)
    request.requestor.send_event(answer, event_mask=0)
    d.flush()


def serve_forever(on_request, on_delete=lambda e: None, idle=None):
    """Runs the event loop; `idle` (seconds, callback) runs between events."""
    while True:
        if idle is not None and not d.pending_events():
            seconds, callback = idle
            deadline = time.monotonic() + seconds
            while not d.pending_events() and time.monotonic() < deadline:
                time.sleep(0.05)
            if not d.pending_events():
                callback()
                continue
        e = d.next_event()
        if e.type == X.SelectionRequest:
            on_request(e)
        elif e.type == X.PropertyNotify and e.state == X.PropertyDelete:
            on_delete(e)


if mode == "targets-endless":
    own_clipboard()
    endless = {}
    chunk = [Xatom.ATOM, Xatom.STRING, UTF8, TARGETS] * 4096  # 64 KiB of atoms per chunk

    def request(e):
        if e.target != TARGETS:
            return notify(e, X.NONE)
        e.requestor.change_attributes(event_mask=X.PropertyChangeMask)
        e.requestor.change_property(e.property, INCR, 32, [1 << 30])
        endless[(e.requestor.id, e.property)] = e.requestor
        notify(e, e.property)

    def deleted(e):
        requestor = endless.get((e.window.id, e.atom))
        if requestor is not None:
            requestor.change_property(e.atom, Xatom.ATOM, 32, chunk)
            d.flush()

    ready()
    serve_forever(request, deleted)

elif mode == "targets-drip":
    own_clipboard()
    interval = float(argument or "4")
    dripping = {}

    def request(e):
        if e.target != TARGETS:
            return notify(e, X.NONE)
        e.requestor.change_attributes(event_mask=X.PropertyChangeMask)
        e.requestor.change_property(e.property, INCR, 32, [1 << 20])
        dripping[(e.requestor.id, e.property)] = [e.requestor, False]
        notify(e, e.property)

    def deleted(e):
        entry = dripping.get((e.window.id, e.atom))
        if entry is not None:
            entry[1] = True  # deleted: the next byte may go

    def drip():
        for (_, prop), entry in list(dripping.items()):
            requestor, ready_for_more = entry
            if ready_for_more:
                entry[1] = False
                requestor.change_property(prop, Xatom.ATOM, 8, b"\x04")
        d.flush()

    ready()
    serve_forever(request, deleted, idle=(interval, drip))

elif mode == "targets-bad-atoms":
    own_clipboard()
    text = (argument or "").encode()

    def request(e):
        if e.target == TARGETS:
            e.requestor.change_property(e.property, Xatom.ATOM, 32, [TARGETS, UTF8, 0x1FFFFFF0, 0x1FFFFFF1])
        elif e.target == UTF8:
            e.requestor.change_property(e.property, UTF8, 8, text)
        else:
            return notify(e, X.NONE)
        notify(e, e.property)

    ready()
    serve_forever(request)

elif mode == "forge-clear":
    MANAGER = atom("CLIPBOARD_MANAGER")
    owner = d.get_selection_owner(MANAGER)
    if owner == X.NONE:
        sys.exit(3)
    forged = event.SelectionClear(time=X.CurrentTime, window=owner, atom=MANAGER)
    owner.send_event(forged, event_mask=0)
    d.sync()
    print("sent", file=sys.stderr, flush=True)

elif mode == "convert-flood":
    count = int(argument or "1000")
    for index in range(count):
        w.convert_selection(CLIPBOARD, UTF8, atom("FLOOD_%d" % index), X.CurrentTime)
        if index % 256 == 0:
            d.flush()
    d.sync()
    ready()
    while True:
        time.sleep(3600)

elif mode == "multiple-empty":
    PAIRS = atom("PAIRS")
    w.change_property(PAIRS, atom("ATOM_PAIR"), 32, [])
    w.convert_selection(CLIPBOARD, atom("MULTIPLE"), PAIRS, X.CurrentTime)
    d.flush()
    while True:
        e = d.next_event()
        if e.type == X.SelectionNotify:
            print("notified " + ("None" if e.property == X.NONE else d.get_atom_name(e.property)), file=sys.stderr, flush=True)
            sys.exit(0)

elif mode == "multiple-twice":
    SAME, MULTIPLE, PAIR = atom("SAME"), atom("MULTIPLE"), atom("ATOM_PAIR")
    notified = 0
    for index in range(2):
        pairs = atom("PAIRS_%d" % index)
        w.change_property(pairs, PAIR, 32, [UTF8, SAME])
        w.convert_selection(CLIPBOARD, MULTIPLE, pairs, X.CurrentTime)
        d.flush()
        while True:
            e = d.next_event()
            if e.type == X.SelectionNotify:
                notified += 1
                print("notified %d" % notified, file=sys.stderr, flush=True)
                break
    sys.exit(0)

elif mode in ("xdnd-drop-vanish", "xdnd-drop-stall", "xdnd-bad-atoms"):
    target = int(argument, 0)
    XDND = {name: atom(name) for name in ["XdndSelection", "XdndEnter", "XdndPosition", "XdndStatus", "XdndDrop",
                                          "XdndFinished", "XdndActionCopy"]}
    TEXT = 0x3ffffff0 if mode == "xdnd-bad-atoms" else atom("text/plain;charset=utf-8")
    if mode == "xdnd-drop-stall":
        w.set_selection_owner(XDND["XdndSelection"], X.CurrentTime)

    def send(kind, data):
        message = event.ClientMessage(window=target, client_type=XDND[kind], data=(32, [w.id] + data))
        d.send_event(target, message)
        d.flush()

    def wait_for(kind):
        while True:
            e = d.next_event()
            if e.type == X.ClientMessage and e.client_type == XDND[kind]:
                return e

    send("XdndEnter", [5 << 24, TEXT, 0, 0])
    send("XdndPosition", [0, (30 << 16) | 30, X.CurrentTime, XDND["XdndActionCopy"]])
    status = wait_for("XdndStatus")
    ready()
    send("XdndDrop", [0, X.CurrentTime, 0, 0])
    finished = wait_for("XdndFinished")
    print("finished %d" % (finished.data[1][1] & 1), file=sys.stderr, flush=True)
    sys.exit(0)

else:
    print("unknown mode " + mode, file=sys.stderr)
    sys.exit(64)

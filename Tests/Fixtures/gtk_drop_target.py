#!/usr/bin/python3
"""A GTK 3 window that takes one drop, as a desktop application does, and records it.

    gtk_drop_target.py RESULT_FILE MODE TYPE...

MODE is how it answers the drag: `copy` (accept as a copy), `move` (accept as a move and, once
the data arrived, finish with delete, GTK's "the source deletes its original"), or `refuse`
(answer every position with no action, so a release there is refused). TYPE... are the targets
it accepts, best first (GTK picks the first the source offers). It prints `ready WINDOW-ID X Y`
once its window is mapped at (X, Y) and writes RESULT_FILE as JSON after the drop: the target
GTK chose, the byte count, the bytes' SHA-256 (and the text, when short UTF-8), the action,
the source's offered targets, and whether the file WATCHED_PATH (in the environment) existed.
"""
import hashlib
import json
import os
import sys

import gi

gi.require_version("Gtk", "3.0")
gi.require_version("Gdk", "3.0")
from gi.repository import Gdk, GLib, Gtk  # noqa: E402

result_path, mode, accepted = sys.argv[1], sys.argv[2], sys.argv[3:]
X, Y, SIDE = 320, 40, 240  # inside the tests' 640×480 Xvfb, clear of its top-left corner
WATCHED = os.environ.get("WATCHED_PATH")

window = Gtk.Window(title="gtk drop target")
window.set_default_size(SIDE, SIDE)
window.move(X, Y)
area = Gtk.Label(label="drop here")
window.add(area)

entries = [Gtk.TargetEntry.new(name, 0, index) for index, name in enumerate(accepted)]
# MOTION and DROP are ours below (refusal, the chosen action); HIGHLIGHT only draws.
area.drag_dest_set(Gtk.DestDefaults.HIGHLIGHT, entries, Gdk.DragAction.COPY | Gdk.DragAction.MOVE)
wanted_action = Gdk.DragAction.MOVE if mode == "move" else Gdk.DragAction.COPY


def on_motion(widget, context, x, y, time):
    if mode == "refuse":
        Gdk.drag_status(context, 0, time)
        return True
    if widget.drag_dest_find_target(context, None) is None:
        Gdk.drag_status(context, 0, time)
        return True
    Gdk.drag_status(context, wanted_action, time)
    return True


def on_drop(widget, context, x, y, time):
    target = widget.drag_dest_find_target(context, None)
    if target is None or mode == "refuse":
        Gtk.drag_finish(context, False, False, time)
        return True
    widget.drag_get_data(context, target, time)
    return True


def as_text(raw):
    try:
        return raw.decode("utf-8") if len(raw) < 4096 else None
    except UnicodeDecodeError:
        return None


def on_received(widget, context, x, y, data, info, time):
    raw = data.get_data() or b""
    offered = [atom.name() for atom in context.list_targets()]
    record = {
        "target": data.get_target().name(),
        "bytes": len(raw),
        "sha256": hashlib.sha256(raw).hexdigest(),
        "text": as_text(raw),
        "action": "move" if context.get_selected_action() == Gdk.DragAction.MOVE else "copy",
        "offered": offered,
        # Whether the source's original (WATCHED_PATH) was still there when the data came:
        # a move's source must delete it only after the drop finished.
        "watchedExisted": os.path.exists(WATCHED) if WATCHED else None,
    }
    # Written whole, then renamed: the test reads it as soon as it exists.
    with open(result_path + ".part", "w") as out:
        json.dump(record, out)
    os.rename(result_path + ".part", result_path)
    Gtk.drag_finish(context, len(raw) > 0, mode == "move", time)
    GLib.timeout_add(500, Gtk.main_quit)


area.connect("drag-motion", on_motion)
area.connect("drag-drop", on_drop)
area.connect("drag-data-received", on_received)
window.connect("destroy", Gtk.main_quit)


def on_mapped(*_):
    # A Wayland window has no X id (and no position of its own: the compositor places it).
    xid = getattr(window.get_window(), "get_xid", lambda: 0)()
    print("ready %d %d %d" % (xid, X, Y), flush=True)


window.connect("map-event", on_mapped)
window.show_all()
Gtk.main()

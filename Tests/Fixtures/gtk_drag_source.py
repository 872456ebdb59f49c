#!/usr/bin/python3
"""A GTK 3 window whose content is dragged out, as a file manager's icon is, and that records
how the drag ended.

    gtk_drag_source.py RESULT_FILE FILE

It offers FILE as `text/uri-list` (its URL) and, for a PNG, as `image/png` (its bytes), for copy
and move. It prints `ready WINDOW-ID X Y` once its window is mapped at (X, Y). When the drag
ends it writes RESULT_FILE as JSON: the targets it was asked for, whether the drop was a move
(GTK's drag-data-delete, asked by the target's DELETE conversion, on which it deletes FILE, as a
file manager moving a file does) and whether the drop failed (GTK's drag-failed, or an
XdndFinished without success).
"""
import json
import os
import sys

import gi

gi.require_version("Gtk", "3.0")
gi.require_version("Gdk", "3.0")
from gi.repository import Gdk, GLib, Gtk  # noqa: E402

result_path, path = sys.argv[1], sys.argv[2]
X, Y, SIDE = 320, 40, 240  # inside the tests' 640×480 Xvfb, clear of its top-left corner
requested = []
state = {"deleted": False}

window = Gtk.Window(title="gtk drag source")
window.set_default_size(SIDE, SIDE)
window.move(X, Y)
box = Gtk.EventBox()
box.add(Gtk.Label(label=os.path.basename(path)))
window.add(box)

targets = Gtk.TargetList.new([])
targets.add_uri_targets(0)
if path.endswith(".png"):
    targets.add(Gdk.Atom.intern("image/png", False), 0, 1)
box.drag_source_set(Gdk.ModifierType.BUTTON1_MASK, [], Gdk.DragAction.COPY | Gdk.DragAction.MOVE)
box.drag_source_set_target_list(targets)


def on_get(widget, context, data, info, time):
    name = data.get_target().name()
    print("drag-data-get " + name, file=sys.stderr, flush=True)
    requested.append(name)
    if name == "image/png":
        with open(path, "rb") as image:
            data.set(data.get_target(), 8, image.read())
    else:
        data.set_uris([GLib.filename_to_uri(os.path.abspath(path), None)])


def on_delete(widget, context):
    print("drag-data-delete", file=sys.stderr, flush=True)
    state["deleted"] = True
    os.unlink(path)


def record(failed):
    # Written whole, then renamed: the test reads it as soon as it exists.
    with open(result_path + ".part", "w") as out:
        json.dump({"requested": requested, "moved": state["deleted"], "failed": failed}, out)
    os.rename(result_path + ".part", result_path)
    GLib.timeout_add(300, Gtk.main_quit)


def on_end(widget, context):
    print("drag-end", file=sys.stderr, flush=True)
    # drag-failed comes first when there was no drop; a drop the target failed ends here.
    if not os.path.exists(result_path):
        record(not Gdk.drag_drop_succeeded(context))


def on_failed(widget, context, result):
    record(True)
    return False


box.connect("drag-data-get", on_get)
box.connect("drag-data-delete", on_delete)
box.connect("drag-end", on_end)
box.connect("drag-failed", on_failed)
window.connect("destroy", Gtk.main_quit)


def on_mapped(*_):
    # A Wayland window has no X id (and no position of its own: the compositor places it).
    xid = getattr(window.get_window(), "get_xid", lambda: 0)()
    print("ready %d %d %d" % (xid, X, Y), flush=True)


window.connect("map-event", on_mapped)
window.show_all()
Gtk.main()

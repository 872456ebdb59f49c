#!/usr/bin/python3
"""A GTK 3 application that copies TEXT and quits at once, as many do (set_text, then store,
which hands the clipboard to the clipboard manager through SAVE_TARGETS before exiting).

Usage: gtk_copy_and_quit.py TEXT   (DISPLAY names the X server)
"""
import sys

import gi

gi.require_version("Gtk", "3.0")
from gi.repository import Gdk, Gtk  # noqa: E402

if not Gtk.init_check(sys.argv[:1])[0]:
    sys.exit(3)
clipboard = Gtk.Clipboard.get(Gdk.SELECTION_CLIPBOARD)
clipboard.set_text(sys.argv[1], -1)
clipboard.store()

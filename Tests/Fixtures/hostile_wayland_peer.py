#!/usr/bin/python3
"""A Wayland application that misbehaves as a drag source, on purpose: a window of its own
(the wire spoken by hand, no library) whose drag offers far too many MIME types and then never
writes what a destination asks for.

    hostile_wayland_peer.py SOCKET

A press of button 1 on its window (titled `hostile drag source`) starts a drag offering
`image/png` and then 3000 more types of its own. Each `send` is printed (`send MIME`) and its
pipe held open unwritten, for ever: the destination must give up by itself. It prints `ready`
once its window is shown.
"""
import array
import os
import socket
import struct
import sys

WIDTH, HEIGHT = 200, 120
path = sys.argv[1]
sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
sock.connect(path)
buffer = b""
descriptors = []
held = []
next_id = [1]


def new_id():
    next_id[0] += 1
    return next_id[0]


def send(obj, opcode, payload=b"", fd=None):
    message = struct.pack("<II", obj, ((8 + len(payload)) << 16) | opcode) + payload
    if fd is None:
        sock.sendall(message)
    else:
        sock.sendmsg([message], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", [fd]))])


def string(text):
    raw = text.encode() + b"\0"
    return struct.pack("<I", len(raw)) + raw + b"\0" * (-len(raw) % 4)


def events():
    global buffer
    while True:
        while len(buffer) >= 8:
            obj, word = struct.unpack("<II", buffer[:8])
            size, opcode = word >> 16, word & 0xFFFF
            if len(buffer) < size:
                break
            body, buffer = buffer[8:size], buffer[size:]
            yield obj, opcode, body
        data, ancillary, _, _ = sock.recvmsg(65536, socket.CMSG_LEN(4 * 28))
        if not data:
            raise SystemExit("the compositor closed the connection")
        for level, kind, payload in ancillary:
            if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
                fds = array.array("i")
                fds.frombytes(payload[: len(payload) - len(payload) % 4])
                descriptors.extend(fds)
        buffer += data


stream = events()
registry = new_id()
send(1, 1, struct.pack("<I", registry))
callback = new_id()
send(1, 0, struct.pack("<I", callback))
globals_ = {}
for obj, opcode, body in stream:
    if obj == registry and opcode == 0:
        name, length = struct.unpack("<II", body[:8])
        globals_.setdefault(body[8:8 + length - 1].decode(), name)
    if obj == callback:
        break


def bind(interface, version):
    new = new_id()
    send(registry, 0, struct.pack("<I", globals_[interface]) + string(interface) + struct.pack("<II", version, new))
    return new


compositor, shm, wm_base = bind("wl_compositor", 4), bind("wl_shm", 1), bind("xdg_wm_base", 1)
seat, manager = bind("wl_seat", 3), bind("wl_data_device_manager", 3)
surface = new_id()
send(compositor, 0, struct.pack("<I", surface))
xdg_surface = new_id()
send(wm_base, 2, struct.pack("<II", xdg_surface, surface))
toplevel = new_id()
send(xdg_surface, 1, struct.pack("<I", toplevel))
send(toplevel, 2, string("hostile drag source"))
send(surface, 6)
device = new_id()
send(manager, 1, struct.pack("<II", device, seat))
pointer = None
over_us = False
shown = False
source = None

for obj, opcode, body in stream:
    if obj == 1 and opcode == 0:
        raise SystemExit("protocol error: %r" % body)
    if obj == wm_base and opcode == 0:
        send(wm_base, 3, body[:4])
    elif obj == xdg_surface and opcode == 0:
        send(xdg_surface, 4, body[:4])
        if not shown:
            memory = os.memfd_create("hostile", os.MFD_CLOEXEC)
            os.write(memory, b"\x40\x40\xc0\xff" * (WIDTH * HEIGHT))
            pool, buffer_id = new_id(), new_id()
            send(shm, 0, struct.pack("<Ii", pool, WIDTH * HEIGHT * 4), fd=memory)
            send(pool, 0, struct.pack("<IiiiiI", buffer_id, 0, WIDTH, HEIGHT, WIDTH * 4, 0))
            send(surface, 1, struct.pack("<Iii", buffer_id, 0, 0))
            send(surface, 2, struct.pack("<iiii", 0, 0, WIDTH, HEIGHT))
            shown = True
            print("ready", flush=True)
        send(surface, 6)
    elif obj == seat and opcode == 0:
        (capabilities,) = struct.unpack("<I", body[:4])
        if capabilities & 1 and pointer is None:
            pointer = new_id()
            send(seat, 0, struct.pack("<I", pointer))
    elif obj == pointer and opcode == 0:
        over_us = struct.unpack("<II", body[:8])[1] == surface
    elif obj == pointer and opcode == 1:
        over_us = False
    elif obj == pointer and opcode == 3:
        serial, _, button, state = struct.unpack("<IIII", body[:16])
        if button == 0x110 and state == 1 and over_us and source is None:
            source = new_id()
            send(manager, 0, struct.pack("<I", source))
            for mime in ["image/png"] + ["application/x-hostile-%d" % index for index in range(3000)]:
                send(source, 0, string(mime))
            send(source, 2, struct.pack("<I", 1))
            send(device, 0, struct.pack("<IIII", source, surface, 0, serial))
    elif obj == source and opcode == 1:
        (length,) = struct.unpack("<I", body[:4])
        print("send " + body[4:4 + length - 1].decode(), flush=True)
        # Held open, never written: the reader has to give up by itself.
        held.append(descriptors.pop(0))

#!/usr/bin/python3
"""A pointer for a headless compositor, which has none: a Wayland client of its own (the wire
spoken by hand, no library) that creates a virtual pointer (`zwlr_virtual_pointer_manager_v1`)
and plays a script on it, as xdotool does on Xvfb.

    wayland_virtual_pointer.py SOCKET WIDTH HEIGHT STEP...

SOCKET is the compositor's socket path; WIDTH and HEIGHT the output's size, which absolute
positions are given in. A STEP is `move:X,Y` (absolute), `down`, `up` (the left button),
`wait:MS`. Each step is followed by a frame and a roundtrip, so the compositor has handled it
before the next. It prints `done` and exits 0 when the script ran; 2 for a compositor without
the protocol.
"""
import socket
import struct
import sys
import time

BTN_LEFT = 0x110


class Client:
    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.buffer = b""
        self.next_id = 2
        self.globals = {}

    def new_id(self):
        self.next_id += 1
        return self.next_id

    def send(self, obj, opcode, payload=b""):
        size = 8 + len(payload)
        self.sock.sendall(struct.pack("<II", obj, (size << 16) | opcode) + payload)

    @staticmethod
    def string(text):
        raw = text.encode() + b"\0"
        return struct.pack("<I", len(raw)) + raw + b"\0" * (-len(raw) % 4)

    def events(self):
        while True:
            while len(self.buffer) >= 8:
                obj, word = struct.unpack("<II", self.buffer[:8])
                size, opcode = word >> 16, word & 0xFFFF
                if len(self.buffer) < size:
                    break
                body, self.buffer = self.buffer[8:size], self.buffer[size:]
                yield obj, opcode, body
            chunk = self.sock.recv(65536)
            if not chunk:
                raise SystemExit("the compositor closed the connection")
            self.buffer += chunk

    def roundtrip(self, registry=None):
        callback = self.new_id()
        self.send(1, 0, struct.pack("<I", callback))  # wl_display.sync
        for obj, opcode, body in self.events():
            if obj == 1 and opcode == 0:  # wl_display.error
                raise SystemExit("protocol error: %r" % body)
            if obj == registry and opcode == 0:  # wl_registry.global
                name, length = struct.unpack("<II", body[:8])
                interface = body[8:8 + length - 1].decode()
                (version,) = struct.unpack("<I", body[8 + length + (-length % 4):][:4])
                self.globals.setdefault(interface, (name, version))
            if obj == callback:
                return

    def bind(self, registry, interface, version):
        name, offered = self.globals[interface]
        new = self.new_id()
        self.send(registry, 0, struct.pack("<I", name) + self.string(interface) + struct.pack("<II", min(version, offered), new))
        return new


def main():
    path, width, height, steps = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:]
    client = Client(path)
    registry = 2
    client.send(1, 1, struct.pack("<I", registry))  # wl_display.get_registry
    client.roundtrip(registry)
    if "zwlr_virtual_pointer_manager_v1" not in client.globals:
        print("no zwlr_virtual_pointer_manager_v1", file=sys.stderr)
        sys.exit(2)
    seat = client.bind(registry, "wl_seat", 1)
    manager = client.bind(registry, "zwlr_virtual_pointer_manager_v1", 1)
    pointer = client.new_id()
    client.send(manager, 0, struct.pack("<II", seat, pointer))  # create_virtual_pointer
    client.roundtrip()
    start = time.monotonic()

    def now():
        return int((time.monotonic() - start) * 1000) & 0xFFFFFFFF

    for step in steps:
        if step.startswith("wait:"):
            time.sleep(int(step[5:]) / 1000)
            continue
        if step.startswith("move:"):
            x, y = (int(v) for v in step[5:].split(","))
            client.send(pointer, 1, struct.pack("<IIIII", now(), x, y, width, height))  # motion_absolute
        elif step in ("down", "up"):
            client.send(pointer, 2, struct.pack("<III", now(), BTN_LEFT, 1 if step == "down" else 0))  # button
        else:
            raise SystemExit("unknown step %r" % step)
        client.send(pointer, 4)  # frame
        client.roundtrip()
    print("done", flush=True)


main()

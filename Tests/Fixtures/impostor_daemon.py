#!/usr/bin/env python3
"""A listener posing as pasteboardd, run as another user by the tests of the client's trust in
its socket (ForeignSocketTests): what a user who made the socket path first could run.

Usage: impostor_daemon.py SOCKET PAYLOAD

Creates SOCKET's directory if it is missing (mode 0755, so others can reach the socket), listens
on SOCKET (mode 0777, so anyone can connect), and prints "listening" on stderr. Each connection
gets a welcome at once, then what a daemon would answer: a representation of PAYLOAD for a read,
ok for a write once its last data frame has arrived, an error for any other request. Every
chunk of bytes received is reported on stderr as "received N" before anything is answered, so
a client that sent something and got its answer has been seen sending it. Runs until killed.

IMPOSTOR_WINDOW and IMPOSTOR_MAX_FRAME_LENGTH in the environment replace the limits its welcome
announces (the tests of a client's checks of a welcome, where it runs as the client's own user).
"""

import json
import os
import socket
import struct
import sys
import threading

HEADER = struct.Struct(">IBBI")  # length of what follows it, kind, flags, request id
MESSAGE, DATA, END = 1, 2, 0x01


def report(line):
    sys.stderr.write(line + "\n")
    sys.stderr.flush()


def message(request_id, body):
    payload = json.dumps(body).encode()
    return HEADER.pack(6 + len(payload), MESSAGE, 0, request_id) + payload


def data(request_id, payload):
    return HEADER.pack(6 + len(payload), DATA, END, request_id) + payload


def serve(connection, payload):
    try:
        answer(connection, payload)
    except OSError:
        pass  # the client went away: a refusing client closes at once
    finally:
        connection.close()


def answer(connection, payload):
    connection.sendall(message(0, {"op": "welcome", "version": 1, "daemon": "pasteboardd 0.0.0",
                                   "pid": os.getpid(),
                                   "maxFrameLength": int(os.environ.get("IMPOSTOR_MAX_FRAME_LENGTH", 65536)),
                                   "window": int(os.environ.get("IMPOSTOR_WINDOW", 1 << 20))}))
    buffered = b""
    writes = set()
    while True:
        chunk = connection.recv(1 << 16)
        if not chunk:
            return
        report(f"received {len(chunk)}")
        buffered += chunk
        while len(buffered) >= HEADER.size:
            length, kind, flags, request_id = HEADER.unpack_from(buffered)
            if len(buffered) < 4 + length:
                break
            body = buffered[HEADER.size:4 + length]
            buffered = buffered[4 + length:]
            if kind == MESSAGE:
                op = json.loads(body).get("op")
                if op == "read":
                    connection.sendall(message(request_id, {
                        "op": "representation", "changeCount": 1, "item": 0, "index": 0,
                        "type": "public.utf8-plain-text", "size": len(payload)}))
                    connection.sendall(data(request_id, payload))
                elif op == "write":
                    writes.add(request_id)
                elif op not in ("hello", "credit", "cancel"):
                    connection.sendall(message(request_id, {"op": "error", "code": "internal", "message": "impostor"}))
            elif kind == DATA and flags & END and request_id in writes:
                writes.discard(request_id)
                connection.sendall(message(request_id, {"op": "ok", "changeCount": 1}))


def main():
    path, payload = sys.argv[1], sys.argv[2].encode()
    os.makedirs(os.path.dirname(path), mode=0o755, exist_ok=True)
    if os.path.exists(path):
        os.unlink(path)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    os.chmod(path, 0o777)
    listener.listen(16)
    report("listening")
    while True:
        connection, _ = listener.accept()
        threading.Thread(target=serve, args=(connection, payload), daemon=True).start()


if __name__ == "__main__":
    main()

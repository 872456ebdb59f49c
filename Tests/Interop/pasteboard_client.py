#!/usr/bin/env python3
"""A Pasteboard client in Python, written from pasteboard-protocol(7) alone.

This module talks to pasteboardd over its Unix socket with protocol version 1, using only
the Python standard library. It is both a small library and a command-line tool, and it is
meant to be read: every part names the section of pasteboard-protocol(7) it implements, so
it can serve as an example for clients in other languages.

The library
-----------
    with Connection() as connection:               # $PASTEBOARD_SOCKET or the default path
        connection.write([Item([Eager("text/html", b"<b>Hi</b>"),
                                Eager("text/plain", b"Hi")])])
        connection.read(sys.stdout.buffer.write, accept=["public.plain-text"])
        print(connection.list())

A source that promises data passes a Promise whose produce function the connection calls,
on a thread of its own, each time a destination loads the representation; what the source
hears (progress, finished or failed loads, released promises, a lost connection) arrives as
events from Connection.next_event().

The command line
----------------
    pasteboard_client.py copy --rep TYPE=TEXT --rep TYPE=@FILE ...    one item, best first
    pasteboard_client.py paste [-t TYPE]... [--item N] [-o FILE] [--progress]
    pasteboard_client.py list | clear | types
    pasteboard_client.py serve-lazy TYPE SIZE [--declare-size]

Every command takes -p/--pasteboard (default: general). serve-lazy promises one
representation of SIZE bytes, prints "serving ..." on stderr once it is on the pasteboard,
serves one load of a deterministic payload (the 32-bit big-endian counter 0, 1, 2, ... cut
to SIZE bytes) with "progress COMPLETED TOTAL" lines, prints "served SIZE bytes, sha256 HEX",
clears the pasteboard and exits 0; interrupted (SIGINT, SIGTERM), it relinquishes its
promise first. paste --progress prints the same progress lines as pb paste --progress.
Exit status: 0 success, 1 failure, 2 usage error, 130 interrupted.
"""

from __future__ import annotations

import argparse
import array
import hashlib
import json
import os
import queue
import signal
import socket
import struct
import sys
import threading
from dataclasses import dataclass
from typing import Callable, Iterable, Iterator, List, Optional, Union

PROTOCOL_VERSION = 1

# FRAMING: a 4-byte length (of what follows it), a kind byte, a flags byte, a request id.
HEADER = struct.Struct(">IBBI")
HEADER_AFTER_LENGTH = 6
MESSAGE, DATA = 1, 2
END = 0x01
# Every peer accepts frames of this length, even before the handshake, and the daemon's
# frames up to welcome are no longer. Data frames may be as long as welcome.maxFrameLength;
# this client, like pb, keeps them within this length all the same.
BASE_FRAME_LENGTH = 65536

# Request ids: 0 is the connection, 1...0x7FFFFFFF the client's, 0x80000000 and up the daemon's.
CONNECTION_ID = 0
LAST_CLIENT_ID = 0x7FFFFFFF
FIRST_DAEMON_ID = 0x80000000


# ---------------------------------------------------------------------------------------
# Errors


class PasteboardError(Exception):
    """Anything that makes a request fail: the base of this module's errors."""


class ProtocolError(PasteboardError):
    """An error message from the daemon (ERROR CODES): the request, or the connection, failed."""

    def __init__(self, code: str, message: str, request_id: int):
        super().__init__(f"{code}: {message}" if message else code)
        self.code = code
        self.message = message
        self.request_id = request_id


class ConnectionClosed(PasteboardError):
    """The connection ended while a request was in flight."""


class NoAnswer(PasteboardError):
    """The daemon did not answer within the connection's timeout (a safety net only)."""


# ---------------------------------------------------------------------------------------
# Connecting


def socket_path(environment=os.environ) -> str:
    """The daemon's socket, by the rule of CONNECTING."""
    if environment.get("PASTEBOARD_SOCKET"):
        return environment["PASTEBOARD_SOCKET"]
    return default_socket_path(environment)


def default_socket_path(environment=os.environ) -> str:
    """The socket path of rules 2 and 3 of CONNECTING (without $PASTEBOARD_SOCKET)."""
    if environment.get("XDG_RUNTIME_DIR"):
        return os.path.join(environment["XDG_RUNTIME_DIR"], "pasteboard", "pasteboardd.sock")
    return f"/tmp/pasteboard-{os.getuid()}/pasteboardd.sock"


def check_directory(path: str) -> None:
    """CONNECTING: the directory of a default path must be ours and not writable by others."""
    if path != default_socket_path():
        return  # an explicit $PASTEBOARD_SOCKET may be in a shared directory (ssh -R into /tmp)
    directory = os.path.dirname(path)
    try:
        info = os.stat(directory)
    except FileNotFoundError:
        return  # no daemon runs there
    if info.st_uid != os.getuid() or info.st_mode & 0o022:
        raise PasteboardError(f"refusing to talk to {path}: its directory {directory} is owned by uid "
                              f"{info.st_uid} with mode {info.st_mode & 0o7777:o} (this user is uid {os.getuid()})")


def check_peer(connection: socket.socket, path: str) -> None:
    """CONNECTING: before sending anything, the peer must run as our own uid (SO_PEERCRED)."""
    credentials = connection.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    _, uid, _ = struct.unpack("3i", credentials)
    if uid != os.getuid():
        raise PasteboardError(f"refusing to talk to {path}: the process listening there runs as uid {uid}, "
                              f"not as this user (uid {os.getuid()})")


# ---------------------------------------------------------------------------------------
# Frames


@dataclass(frozen=True)
class Frame:
    """One frame as received: a message (JSON object) or data (raw bytes)."""

    kind: int
    flags: int
    request_id: int
    payload: bytes

    @property
    def is_message(self) -> bool:
        return self.kind == MESSAGE

    @property
    def is_end(self) -> bool:
        """True for the data frame that ends a representation's bytes."""
        return self.kind == DATA and bool(self.flags & END)

    def message(self) -> dict:
        """The message's JSON object; members this client does not know are simply ignored."""
        decoded = json.loads(self.payload.decode("utf-8"))
        if not isinstance(decoded, dict) or not isinstance(decoded.get("op"), str):
            raise PasteboardError(f"request {self.request_id}: the daemon sent a message without op")
        return decoded


def encode_frame(kind: int, request_id: int, payload: bytes, flags: int = 0) -> bytes:
    """The bytes of one frame on the wire."""
    return HEADER.pack(HEADER_AFTER_LENGTH + len(payload), kind, flags, request_id) + payload


def encode_message(request_id: int, message: dict) -> bytes:
    """A message frame: compact UTF-8 JSON, op among the members."""
    payload = json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    return encode_frame(MESSAGE, request_id, payload)


def read_frame(stream, max_length: int) -> Optional[Frame]:
    """Reads one frame from a buffered binary stream; None at the end of the stream."""
    header = stream.read(HEADER.size)
    if not header:
        return None
    if len(header) < HEADER.size:
        raise ConnectionClosed("the connection ended inside a frame header")
    length, kind, flags, request_id = HEADER.unpack(header)
    if length < HEADER_AFTER_LENGTH or length > max_length:
        raise PasteboardError(f"the daemon sent a frame of length {length} (allowed: 6 to {max_length})")
    payload = stream.read(length - HEADER_AFTER_LENGTH)
    if len(payload) < length - HEADER_AFTER_LENGTH:
        raise ConnectionClosed("the connection ended inside a frame")
    return Frame(kind, flags, request_id, payload)


def answer_of(frame: Frame) -> dict:
    """The message in `frame`, raising ProtocolError when it is an error message."""
    if not frame.is_message:
        raise PasteboardError(f"request {frame.request_id}: expected a message, got a data frame")
    message = frame.message()
    if message["op"] == "error":
        raise ProtocolError(message.get("code", "internal"), message.get("message", ""), frame.request_id)
    return message


# ---------------------------------------------------------------------------------------
# What a source offers: items of representations, best first


@dataclass
class Eager:
    """A representation whose bytes go to the daemon with the write."""

    type: str
    data: bytes


@dataclass
class Produced:
    """A promise's answer to one load: the bytes, and their number if known now."""

    chunks: Iterable[bytes]
    size: Optional[int] = None  # sent as a size message before the first data frame


@dataclass
class Promise:
    """A representation whose bytes the source produces each time a destination loads it.

    `produce` is called with the daemon's produce message (promise, pasteboard, item, type,
    destinationPID or capture) and returns a Produced. An exception it raises is sent to the
    daemon as an error message, which fails that load. `size`, when the source knows it at
    the time of the write, is declared in the write, and every load must then produce it.
    """

    type: str
    produce: Callable[[dict], Produced]
    size: Optional[int] = None


Representation = Union[Eager, Promise]


@dataclass
class Item:
    """One item: its representations in fidelity order, best first."""

    representations: List[Representation]
    suggested_name: Optional[str] = None


# Events a source hears about its promises (Connection.next_event).


@dataclass
class LoadProgress:
    """A progress report on a produce: how many bytes the destination has received."""

    produce: dict
    completed: int
    total: Optional[int]


@dataclass
class LoadServed:
    """The daemon ended a produce with ok: the load got every byte."""

    produce: dict
    size: int


@dataclass
class LoadFailed:
    """A produce ended without ok: the daemon cancelled it, or the source sent an error."""

    produce: dict
    reason: str


@dataclass
class PromisesReleased:
    """These promises left the pasteboard (replaced or cleared): nothing will load them."""

    promises: List[int]


@dataclass
class ConnectionLost:
    """The connection ended; every promise of this connection is now unavailable."""

    reason: str


SourceEvent = Union[LoadProgress, LoadServed, LoadFailed, PromisesReleased, ConnectionLost]


# ---------------------------------------------------------------------------------------
# Requests and flow control


class Request:
    """One request id in flight: the frames the daemon sends on it arrive in `inbox`."""

    def __init__(self, connection: "Connection", request_id: int):
        self.connection = connection
        self.id = request_id
        self.inbox: "queue.Queue[Optional[Frame]]" = queue.Queue()

    def send(self, message: dict) -> None:
        self.connection.send_frame(encode_message(self.id, message))

    def send_data(self, payload: bytes, end: bool) -> None:
        self.connection.send_frame(encode_frame(DATA, self.id, payload, END if end else 0))

    def receive(self, block: bool = True) -> Optional[Frame]:
        """The next frame on this id (None when not blocking and nothing has come)."""
        try:
            frame = self.inbox.get(block=block, timeout=self.connection.timeout if block else None)
        except queue.Empty:
            if not block:
                return None
            raise NoAnswer(f"request {self.id}: no frame from pasteboardd within {self.connection.timeout} s")
        if frame is None:
            raise ConnectionClosed(f"request {self.id}: {self.connection.closed_reason}")
        return frame

    def receive_answer(self) -> dict:
        """The next message on this id; an error message raises ProtocolError."""
        return answer_of(self.receive())

    def close(self) -> None:
        """Stops following this id; later frames on it are dropped."""
        self.connection.forget(self.id)

    def __enter__(self) -> "Request":
        return self

    def __exit__(self, *exception) -> None:
        self.close()


class CreditedSender:
    """Sends one request's data frames against the receiver's credit (FLOW CONTROL).

    The sender starts with welcome.window bytes of credit, spends a data frame's payload
    size on each, and waits for credit messages when it runs out. Messages other than
    credit go to `on_message`, which returns True for the request's terminal frame (say, an
    error while the bytes are still being sent); after that, nothing more is sent.
    """

    def __init__(self, request: Request, on_message: Callable[[dict], bool]):
        self.request = request
        self.credit = request.connection.window
        self.max_payload = request.connection.max_data_payload
        self.on_message = on_message
        self.terminal: Optional[dict] = None

    def send(self, data: bytes, end: bool) -> bool:
        """Sends `data` in frames, the last with END if `end`; False if the request ended."""
        view = memoryview(data)
        while True:
            self._take_messages(block=False)
            if self.terminal is not None:
                return False
            size = min(len(view), self.max_payload, self.credit)
            if size == 0 and len(view) > 0:
                self._take_messages(block=True)  # out of credit: wait for some
                continue
            last = size == len(view)
            self.request.send_data(bytes(view[:size]), end=end and last)
            self.credit -= size
            view = view[size:]
            if last:
                return True

    def wait_for_terminal(self) -> dict:
        """Handles the request's messages until its terminal one arrives, and returns it."""
        while self.terminal is None:
            self._take_messages(block=True)
        return self.terminal

    def _take_messages(self, block: bool) -> None:
        """Handles what has arrived on the id, waiting for one frame first if `block`."""
        while self.terminal is None:
            frame = self.request.receive(block=block)
            if frame is None:
                return
            block = False
            if not frame.is_message:
                continue  # the daemon sends no data on a stream it receives
            message = frame.message()
            if message["op"] == "credit":
                self.credit += max(0, message["bytes"])
            elif self.on_message(message):
                self.terminal = message


# ---------------------------------------------------------------------------------------
# The connection


class Connection:
    """One connection to pasteboardd: the handshake, then any number of requests.

    A reader thread receives every frame and routes it by request id: to the Request that
    follows a client id, to a produce being served on a daemon id, or, for a produce or
    released the daemon starts, to a new serving thread or the event queue.
    """

    def __init__(self, path: Optional[str] = None, client: str = "pasteboard_client.py",
                 app: Optional[str] = None, timeout: Optional[float] = None):
        """Connects and does the handshake. `timeout` bounds every wait for the daemon."""
        self.path = path or socket_path()
        self.timeout = timeout
        self.closed_reason: Optional[str] = None
        self._connection_error: Optional[str] = None
        self._socket = self._connect(self.path)
        self._input = self._socket.makefile("rb")
        self._send_lock = threading.Lock()
        self._routes: dict = {}
        self._routes_lock = threading.Lock()
        self._next_request_id = 1
        self._promises: dict = {}
        self._next_promise = 1
        self._events: "queue.Queue[SourceEvent]" = queue.Queue()
        try:
            self.welcome = self._handshake(client, app)
        except BaseException:
            self._input.close()
            self._socket.close()
            raise
        self.max_frame_length: int = self.welcome["maxFrameLength"]
        self.window: int = self.welcome["window"]
        self.max_data_payload = min(BASE_FRAME_LENGTH, self.max_frame_length) - HEADER_AFTER_LENGTH
        self._reader = threading.Thread(target=self._read_frames, name="pasteboard-reader", daemon=True)
        self._reader.start()

    # -- connecting and the handshake ----------------------------------------------------

    @staticmethod
    def _connect(path: str) -> socket.socket:
        check_directory(path)
        connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            connection.connect(path)
            check_peer(connection, path)
        except (FileNotFoundError, ConnectionRefusedError) as error:
            connection.close()
            raise PasteboardError(f"no pasteboardd listens on {path} ({error.strerror})") from None
        except OSError as error:
            connection.close()
            raise PasteboardError(f"cannot connect to {path}: {error.strerror}") from None
        except PasteboardError:
            connection.close()
            raise
        return connection

    def _handshake(self, client: str, app: Optional[str]) -> dict:
        """Sends hello on request id 0 and waits for welcome (CONNECTING, Handshake)."""
        hello = {"op": "hello", "version": PROTOCOL_VERSION, "client": client, "pid": os.getpid()}
        if app is not None:
            hello["app"] = app
        self._socket.sendall(encode_message(CONNECTION_ID, hello))
        self._socket.settimeout(self.timeout)
        try:
            frame = read_frame(self._input, BASE_FRAME_LENGTH)
        except socket.timeout:
            raise NoAnswer(f"no welcome from pasteboardd within {self.timeout} s") from None
        finally:
            self._socket.settimeout(None)
        if frame is None:
            raise ConnectionClosed("pasteboardd closed the connection before welcome")
        welcome = answer_of(frame)
        if welcome["op"] != "welcome" or frame.request_id != CONNECTION_ID:
            raise PasteboardError(f"expected welcome on request id 0, got {welcome['op']}")
        if welcome["version"] != PROTOCOL_VERSION:
            raise PasteboardError(f"pasteboardd speaks protocol version {welcome['version']}, not {PROTOCOL_VERSION}")
        return welcome

    # -- sending and receiving -------------------------------------------------------------

    def send_frame(self, frame: bytes) -> None:
        """Sends one encoded frame; frames from several threads never interleave."""
        if len(frame) - 4 > self.max_frame_length:
            raise PasteboardError(f"a frame of length {len(frame) - 4} exceeds maxFrameLength {self.max_frame_length}")
        with self._send_lock:
            try:
                self._socket.sendall(frame)
            except OSError as error:
                raise ConnectionClosed(f"cannot send to pasteboardd: {error.strerror}") from None

    def open_request(self) -> Request:
        """A new client request id: a counter from 1, never reused on this connection."""
        with self._routes_lock:
            if self._next_request_id > LAST_CLIENT_ID:
                raise PasteboardError("this connection has used every client request id")
            request = Request(self, self._next_request_id)
            self._next_request_id += 1
            self._follow(request)
        return request

    def forget(self, request_id: int) -> None:
        with self._routes_lock:
            self._routes.pop(request_id, None)

    def _follow(self, request: Request) -> None:
        """Routes frames on request.id to it (the caller holds _routes_lock)."""
        if self.closed_reason is not None:
            raise ConnectionClosed(self.closed_reason)
        self._routes[request.id] = request

    def _read_frames(self) -> None:
        """The reader thread: routes every frame until the connection ends."""
        reason = "pasteboardd closed the connection"
        try:
            while True:
                frame = read_frame(self._input, self.max_frame_length)
                if frame is None:
                    break
                self._route(frame)
        except (OSError, ValueError, PasteboardError) as error:
            reason = f"the connection failed: {error}"
        with self._routes_lock:
            if self.closed_reason is None:
                self.closed_reason = self._connection_error or reason
            requests = list(self._routes.values())
            self._routes.clear()
        for request in requests:
            request.inbox.put(None)
        self._events.put(ConnectionLost(self.closed_reason))

    def _route(self, frame: Frame) -> None:
        if frame.request_id == CONNECTION_ID:
            self._connection_error(frame)
            return
        with self._routes_lock:
            request = self._routes.get(frame.request_id)
        if request is not None:
            request.inbox.put(frame)
        elif frame.request_id >= FIRST_DAEMON_ID and frame.is_message:
            self._daemon_request(frame)
        # Anything else is a late frame of a request this client stopped following.

    def _connection_error(self, frame: Frame) -> None:
        """An error on request id 0: after a fatal one the daemon closes the connection, and
        the error is the reason every request still in flight fails."""
        if frame.is_message:
            message = frame.message()
            if message["op"] == "error":
                self._connection_error = (f"pasteboardd closed the connection: {message.get('code')}: "
                                          f"{message.get('message', '')}")

    # -- closing -----------------------------------------------------------------------------

    def close(self) -> None:
        """Closes the connection; promises still on a pasteboard become unavailable."""
        with self._routes_lock:
            if self.closed_reason is None:
                self.closed_reason = "the client closed the connection"
        try:
            self._socket.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self._reader.join()
        self._input.close()
        self._socket.close()

    def __enter__(self) -> "Connection":
        return self

    def __exit__(self, *exception) -> None:
        self.close()

    # -- simple requests -------------------------------------------------------------------

    def call(self, message: dict) -> dict:
        """Sends a request answered by one terminal message, and returns that message."""
        with self.open_request() as request:
            request.send(message)
            return request.receive_answer()

    def list(self, pasteboard: str = "general") -> dict:
        """The items message describing a pasteboard."""
        return self.call({"op": "list", "pasteboard": pasteboard})

    def clear(self, pasteboard: str = "general", if_change_count: Optional[int] = None) -> int:
        """Clears a pasteboard (only if its change count is still `if_change_count`, when
        given); returns the change count the ok carries."""
        message = {"op": "clear", "pasteboard": pasteboard}
        if if_change_count is not None:
            message["ifChangeCount"] = if_change_count
        return self.call(message)["changeCount"]

    def relinquish(self) -> None:
        """Hands the daemon the bytes of every promise still on a pasteboard (within its
        capture budget) before the client closes the connection."""
        self.call({"op": "relinquish"})

    def types(self, attempts: int = 3) -> List[dict]:
        """Every type declaration the daemon holds, in its order, as the objects of type-list's
        types: {"declaration": {...}, "source": "built-in" | "file" | "app", "file": ..., "app": ...}.
        Asks again from where the last answer ended while it says more, and starts over when
        the generation changes between answers (TYPE DECLARATIONS)."""
        for _ in range(attempts):
            entries: List[dict] = []
            generation = None
            while True:
                message = {"op": "types"}
                if entries:
                    message["start"] = len(entries)
                answer = self.call(message)
                if generation is None:
                    generation = answer["generation"]
                elif answer["generation"] != generation:
                    break  # the declarations changed meanwhile: start over
                entries.extend(answer["types"])
                if not answer.get("more"):
                    return entries
                if not answer["types"]:
                    raise PasteboardError("a type-list says more but lists no declaration")
        raise PasteboardError(f"the daemon's declarations changed {attempts} times while they were read")

    # -- write -----------------------------------------------------------------------------

    def write(self, items: List[Item], pasteboard: str = "general",
              if_change_count: Optional[int] = None, expire: Optional[float] = None) -> int:
        """Replaces the pasteboard's items; returns the new change count (REQUESTS, write)."""
        message = {"op": "write", "pasteboard": pasteboard, "items": [self._describe(item) for item in items]}
        if if_change_count is not None:
            message["ifChangeCount"] = if_change_count
        if expire is not None:
            message["expire"] = expire
        eager = [r.data for item in items for r in item.representations if isinstance(r, Eager)]
        with self.open_request() as request:
            request.send(message)
            sender = CreditedSender(request, on_message=lambda answer: True)
            for data in eager:
                if not sender.send(data, end=True):
                    break  # the daemon answered before all bytes were sent: an error
            answer = sender.wait_for_terminal()
        if answer["op"] == "error":
            raise ProtocolError(answer.get("code", "internal"), answer.get("message", ""), request.id)
        return answer["changeCount"]

    def _describe(self, item: Item) -> dict:
        """An item object for a write; promises get a number of their own."""
        description = {"representations": [self._describe_representation(r) for r in item.representations]}
        if item.suggested_name is not None:
            description["suggestedName"] = item.suggested_name
        return description

    def _describe_representation(self, representation: Representation) -> dict:
        if isinstance(representation, Eager):
            return {"type": representation.type, "size": len(representation.data)}
        number = self._next_promise
        self._next_promise += 1
        self._promises[number] = representation
        described = {"type": representation.type, "promise": number}
        if representation.size is not None:
            described["size"] = representation.size
        return described

    # -- read ------------------------------------------------------------------------------

    def read(self, sink: Callable[[bytes], None], accept: Iterable[str] = (), item: int = 0,
             pasteboard: str = "general",
             on_progress: Optional[Callable[[int, Optional[int]], None]] = None) -> dict:
        """Loads one representation of an item: the first type in `accept` (identifiers or
        MIME types, most preferred first) that one conforms to, or the first representation
        when `accept` is empty. Passes its bytes to `sink` as they arrive, progress reports
        to `on_progress(completed, total)`, and returns the representation message."""
        with self.open_request() as request:
            request.send({"op": "read", "pasteboard": pasteboard, "item": item, "accept": list(accept)})
            try:
                return self._receive_representation(request, sink, on_progress)
            except ConnectionClosed:
                raise
            except BaseException:
                # Whatever stops this client from reading on (its sink failed, it was
                # interrupted): cancel, so the daemon stops too. Ignored if the read has ended.
                self._try_to_send(request, {"op": "cancel"})
                raise

    def _receive_representation(self, request: Request, sink, on_progress) -> dict:
        """The representation message, then data and progress until the END frame."""
        header: Optional[dict] = None
        received = 0
        unacknowledged = 0  # bytes consumed and not yet returned as credit
        while True:
            frame = request.receive()
            if frame.is_message:
                message = answer_of(frame)
                if message["op"] == "representation":
                    header = message
                elif message["op"] == "progress" and on_progress is not None:
                    on_progress(message["completed"], message.get("total"))
                continue
            if header is None:
                raise PasteboardError(f"request {request.id}: data arrived before the representation message")
            sink(frame.payload)
            received += len(frame.payload)
            if frame.is_end:
                self._check_size(header, received)
                return header
            unacknowledged += len(frame.payload)
            if unacknowledged >= self.window // 2:  # grant credit in batches, as the daemon does
                request.send({"op": "credit", "bytes": unacknowledged})
                unacknowledged = 0

    @staticmethod
    def _try_to_send(request: Request, message: dict) -> None:
        """Sends `message` unless the connection has gone, when there is no one to tell."""
        try:
            request.send(message)
        except ConnectionClosed:
            pass

    @staticmethod
    def _check_size(header: dict, received: int) -> None:
        if header.get("size") is not None and header["size"] != received:
            raise PasteboardError(f"received {received} bytes, but the representation has {header['size']}")

    # -- serving promises ------------------------------------------------------------------

    def next_event(self, timeout: Optional[float] = None) -> Optional[SourceEvent]:
        """The next thing the source hears about its promises; None after `timeout` s."""
        try:
            return self._events.get(timeout=timeout)
        except queue.Empty:
            return None

    def _daemon_request(self, frame: Frame) -> None:
        """A message starting something on a daemon id: a produce, or released."""
        message = frame.message()
        if message["op"] == "released":
            self._events.put(PromisesReleased(message["promises"]))
        elif message["op"] == "produce":
            request = Request(self, frame.request_id)
            with self._routes_lock:
                self._follow(request)
            threading.Thread(target=self._serve, args=(request, message), daemon=True,
                             name=f"produce-{frame.request_id:#x}").start()

    def _serve(self, request: Request, produce: dict) -> None:
        """Answers one produce (LAZY REPRESENTATIONS, Producing the bytes), on its own thread."""
        with request:
            try:
                event = self._produce(request, produce)
            except PasteboardError as error:
                event = LoadFailed(produce, str(error))
            self._events.put(event)

    def _produce(self, request: Request, produce: dict) -> SourceEvent:
        """Sends an optional size, then the bytes against credit, then waits for ok."""
        sender = CreditedSender(request, on_message=lambda message: self._produce_answer(produce, message))
        sent = 0
        try:
            produced = self._promised(produce).produce(produce)
            if produced.size is not None:
                request.send({"op": "size", "bytes": produced.size})
            for chunk in produced.chunks:
                if not sender.send(chunk, end=False):
                    break  # the daemon ended the produce: the load was cancelled or failed
                sent += len(chunk)
            else:
                sender.send(b"", end=True)
        except ConnectionClosed:
            raise
        except Exception as error:  # the source cannot produce the bytes: an error ends the produce
            request.send({"op": "error", "code": "source-unavailable", "message": str(error)})
            return LoadFailed(produce, f"could not produce: {error}")
        answer = sender.wait_for_terminal()
        if answer["op"] == "ok":
            return LoadServed(produce, sent)
        return LoadFailed(produce, f"{answer.get('code')}: {answer.get('message', '')}")

    def _promised(self, produce: dict) -> Promise:
        """The Promise a produce names. Released promises stay known, since a read that
        began before the release may still load them."""
        promise = self._promises.get(produce["promise"])
        if promise is None:
            raise LookupError(f"this source never promised number {produce['promise']}")
        return promise

    def _produce_answer(self, produce: dict, message: dict) -> bool:
        """A message on a produce's id: progress, or the terminal ok or error."""
        if message["op"] == "progress":
            self._events.put(LoadProgress(produce, message["completed"], message.get("total")))
            return False
        return message["op"] in ("ok", "error")


# ---------------------------------------------------------------------------------------
# The command line


def counter_payload(size: int, chunk_words: int = 16384) -> Iterator[bytes]:
    """The serve-lazy payload: the 32-bit big-endian counter 0, 1, 2, ... cut to `size` bytes
    (at most 16 GiB), so that a lost, repeated or reordered frame changes the checksum."""
    if size > 4 << 32:
        raise ValueError("the counter payload has at most 16 GiB")
    emitted, word = 0, 0
    while emitted < size:
        words = array.array("I", range(word, word + chunk_words))
        if sys.byteorder == "little":
            words.byteswap()
        chunk = words.tobytes()[: size - emitted]
        emitted += len(chunk)
        word += chunk_words
        yield chunk


def sha256_of(chunks: Iterable[bytes]) -> str:
    digest = hashlib.sha256()
    for chunk in chunks:
        digest.update(chunk)
    return digest.hexdigest()


def report(line: str) -> None:
    """One line on stderr, at once (a test may be waiting for it)."""
    print(line, file=sys.stderr, flush=True)


def progress_line(completed: int, total: Optional[int]) -> str:
    """`progress COMPLETED TOTAL`, as pb paste --progress prints it ('?' for no total)."""
    return f"progress {completed} {'?' if total is None else total}"


def parse_representation(spec: str) -> Eager:
    """TYPE=TEXT or TYPE=@FILE; the type ends at the first '='."""
    type_name, separator, value = spec.partition("=")
    if not separator or not type_name:
        raise argparse.ArgumentTypeError(f"'{spec}' is not TYPE=TEXT or TYPE=@FILE")
    if value.startswith("@"):
        try:
            with open(value[1:], "rb") as file:
                return Eager(type_name, file.read())
        except OSError as error:
            raise argparse.ArgumentTypeError(f"cannot read {value[1:]}: {error.strerror}") from None
    return Eager(type_name, value.encode("utf-8"))


def copy_command(connection: Connection, arguments) -> int:
    """copy: one item whose representations are the --rep arguments, best first."""
    change_count = connection.write([Item(arguments.representations)], pasteboard=arguments.pasteboard)
    report(f"copied {len(arguments.representations)} representations (change count {change_count})")
    return 0


def paste_command(connection: Connection, arguments) -> int:
    """paste: the chosen representation's bytes to stdout or, through a rename, a file."""
    on_progress = (lambda completed, total: report(progress_line(completed, total))) if arguments.progress else None
    if arguments.output is None:
        connection.read(sys.stdout.buffer.write, arguments.types, arguments.item, arguments.pasteboard, on_progress)
        sys.stdout.buffer.flush()
        return 0
    partial = arguments.output + ".partial"
    try:
        with open(partial, "wb") as file:
            connection.read(file.write, arguments.types, arguments.item, arguments.pasteboard, on_progress)
        os.replace(partial, arguments.output)
    finally:
        if os.path.exists(partial):
            os.remove(partial)
    return 0


def list_command(connection: Connection, arguments) -> int:
    """list: the items message as JSON on stdout."""
    print(json.dumps(connection.list(arguments.pasteboard), indent=2, sort_keys=True))
    return 0


def types_command(connection: Connection, arguments) -> int:
    """types: one line per declaration, in the daemon's order: identifier, then its source."""
    for entry in connection.types():
        source = entry["source"]
        origin = entry.get("file") if source == "file" else f"declared by {entry.get('app')}" if source == "app" else source
        print(f"{entry['declaration']['identifier']}  {origin}")
    return 0


def clear_command(connection: Connection, arguments) -> int:
    report(f"cleared (change count {connection.clear(arguments.pasteboard)})")
    return 0


def serve_lazy_command(connection: Connection, arguments) -> int:
    """serve-lazy: promise one representation, serve one load of the counter payload, clear."""
    size = arguments.size

    def produce(request: dict) -> Produced:
        # The size goes either in the write or, at each load, in a size message.
        return Produced(counter_payload(size), size=None if arguments.declare_size else size)

    promise = Promise(arguments.type, produce, size=size if arguments.declare_size else None)
    change_count = connection.write([Item([promise])], pasteboard=arguments.pasteboard)
    report(f"serving {arguments.type}, {size} bytes, on '{arguments.pasteboard}' (change count {change_count})")
    try:
        if not serve_one_load(connection, size):
            return 0
    except KeyboardInterrupt:
        report("interrupted: handing the daemon what fits in its capture budget")
        connection.relinquish()
        return 130
    connection.clear(arguments.pasteboard, if_change_count=change_count)
    wait_for_release(connection)
    return 0


def serve_one_load(connection: Connection, size: int) -> bool:
    """Reports the source's events until one load was served; False if the promise was
    released first (someone replaced the item)."""
    while True:
        event = connection.next_event()
        if isinstance(event, LoadProgress):
            report(progress_line(event.completed, event.total))
        elif isinstance(event, LoadServed):
            report(f"served {event.size} bytes, sha256 {sha256_of(counter_payload(size))}")
            return True
        elif isinstance(event, LoadFailed):
            report(f"a load failed: {event.reason}; serving on")
        elif isinstance(event, PromisesReleased):
            report("the promise was released (the item was replaced or cleared) before a load was served")
            return False
        elif isinstance(event, ConnectionLost):
            raise ConnectionClosed(event.reason)


def wait_for_release(connection: Connection) -> None:
    """Waits for the released notification of the promise: then nothing refers to it."""
    while True:
        event = connection.next_event()
        if isinstance(event, PromisesReleased):
            return
        if isinstance(event, ConnectionLost):
            raise ConnectionClosed(event.reason)


def byte_count(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError("a size is 0 or more")
    return value


def argument_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="pasteboard_client.py",
                                     description="A Pasteboard client written from pasteboard-protocol(7).")
    parser.add_argument("--timeout", type=float, default=120,
                        help="give up when the daemon does not answer for this many seconds (default 120)")
    commands = parser.add_subparsers(dest="command", required=True)

    def command(name: str, handler, help_text: str) -> argparse.ArgumentParser:
        subparser = commands.add_parser(name, help=help_text, description=help_text)
        subparser.add_argument("-p", "--pasteboard", default="general", help="the pasteboard (default: general)")
        subparser.set_defaults(handler=handler)
        return subparser

    copy = command("copy", copy_command, "Copy one item with several representations, best first.")
    copy.add_argument("--rep", dest="representations", type=parse_representation, action="append", required=True,
                      metavar="TYPE=VALUE", help="a representation: TYPE=TEXT or TYPE=@FILE; repeat, best first")
    paste = command("paste", paste_command, "Paste the best representation for the accepted types.")
    paste.add_argument("-t", "--type", dest="types", action="append", default=[], metavar="TYPE",
                       help="an accepted type identifier or MIME type; repeat, most preferred first")
    paste.add_argument("--item", type=int, default=0, help="which item, from 0")
    paste.add_argument("-o", "--output", help="write to this file instead of stdout")
    paste.add_argument("--progress", action="store_true", help="print 'progress COMPLETED TOTAL' lines on stderr")
    command("list", list_command, "Print the pasteboard's items as JSON.")
    command("clear", clear_command, "Remove every item from the pasteboard.")
    command("types", types_command, "List the daemon's type declarations, each with where it came from.")
    serve = command("serve-lazy", serve_lazy_command,
                    "Promise one representation of SIZE counter bytes, serve one load, then clear.")
    serve.add_argument("type", help="the representation's type identifier or MIME type")
    serve.add_argument("size", type=byte_count, help="the payload's size in bytes")
    serve.add_argument("--declare-size", action="store_true",
                       help="declare the size in the write instead of in a size message at each load")
    return parser


def interrupt_on_sigterm() -> None:
    """SIGTERM interrupts like SIGINT, so that a source relinquishes its promises."""
    def interrupt(signal_number, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, interrupt)


def main(argv: Optional[List[str]] = None) -> int:
    arguments = argument_parser().parse_args(argv)
    interrupt_on_sigterm()
    try:
        with Connection(timeout=arguments.timeout) as connection:
            return arguments.handler(connection, arguments)
    except PasteboardError as error:
        report(f"pasteboard_client.py: {error}")
        return 1
    except KeyboardInterrupt:
        report("pasteboard_client.py: interrupted")
        return 130


if __name__ == "__main__":
    sys.exit(main())

#if canImport(Glibc)
import Glibc
#endif

/// A drag from a terminal into a GUI application on Wayland (issue 42), on the bench's own
/// headless sway with a daemon that starts its bridge there: the time from the release of the
/// button over a GTK 3 application (python3-gi, `GDK_BACKEND=wayland`) to that application
/// holding every byte of a 20 MiB PNG dragged with `pb drag --desktop`; against the same
/// application receiving the same bytes dragged from a GTK 3 source: what the desktop's own
/// toolkit does with the same drop. A headless sway has no pointer: a client of the bench's own
/// drives a virtual one (`zwlr_virtual_pointer_manager_v1`), and both times are read on that
/// client's and the receiver's clock (CLOCK_MONOTONIC, in one Python each).
struct WaylandDragSpeed {
    /// Rounds of each, alternating; the best of each is reported.
    let rounds: Int
    let size: Int
    let progress: (String) -> Void

    private var pb: String { Spawned.ownDirectory + "/pb" }
    static let goal = 1.25

    private var scenario: String {
        "Desktop drag, Wayland: release over a GTK 3 application to its holding all \(size >> 20) MiB of a `pb drag --desktop` PNG (best of \(rounds))"
    }

    func rows() async throws -> [BenchRow] {
        let server: WaylandServer
        switch WaylandServer.start() {
        case .success(let started): server = started
        case .failure(let reason): return [skipped(reason.description)]
        }
        defer { server.stop() }
        guard Spawned.find("swaymsg") != nil else { return [skipped("swaymsg not installed (sway)")] }
        let python = "/usr/bin/python3"
        guard (try? Spawned.start([python, "-c", "import gi; gi.require_version('Gtk', '3.0'); from gi.repository import Gtk"]).wait()) == 0 else {
            return [skipped("python3-gi with GTK 3 not installed")]
        }
        let daemon = try await BenchDaemon.start(display: ["WAYLAND_DISPLAY": server.socketPath])
        defer { daemon.stop() }
        _ = try BridgeStatusWatch(daemon).bridging()
        // GTK will not start without XDG_RUNTIME_DIR, even given the socket's whole path.
        let runtime = String(server.socketPath[..<(server.socketPath.lastIndex(of: "/") ?? server.socketPath.endIndex)])
        let gtk = ChildEnvironment(setting: ["WAYLAND_DISPLAY": server.socketPath, "XDG_RUNTIME_DIR": runtime, "GDK_BACKEND": "wayland"], removing: ["DISPLAY"])
        let pbEnvironment = ChildEnvironment(setting: ["PASTEBOARD_SOCKET": daemon.socketPath], removing: ["DISPLAY", "WAYLAND_DISPLAY"])
        let scripts = daemon.directory
        try DesktopDragSpeed.write(Self.gtk, to: scripts + "/gtk.py")
        try DesktopDragSpeed.write(Self.pointer, to: scripts + "/pointer.py")
        let image = daemon.directory + "/large.png"
        try DesktopDragSpeed.writePNGLike(image, size: size)

        var ours = Duration.seconds(1 << 40), theirs = ours
        for round in 1...rounds {
            progress("desktop drag, Wayland, \(size >> 20) MiB, round \(round) of \(rounds): a drop into GTK from pb drag --desktop, then from a GTK source")
            let pbDrag = [pb, "drag", "--desktop", image]
            let ourTime = try dropTime(round: round, name: "ours", in: daemon, environment: gtk, from: "^Pasteboard: drag session") { _ in
                try Spawned.start(pbDrag, output: daemon.directory + "/pb-drag.log", environment: pbEnvironment)
            }
            ours = min(ours, ourTime)
            let theirTime = try dropTime(round: round, name: "theirs", in: daemon, environment: gtk, from: "^bench drag source$") { python in
                try Spawned.start([python, scripts + "/gtk.py", "source", image], output: daemon.directory + "/gtk-source.log", environment: gtk)
            }
            theirs = min(theirs, theirTime)
        }
        let ratio = Figure.seconds(ours) / Figure.seconds(theirs)
        return [BenchRow(
            scenario: scenario, ours: Figure.milliseconds(ours),
            baseline: "\(Figure.milliseconds(theirs)) (the same GTK application receiving the bytes dragged from a GTK 3 source)",
            ratio: ratio, goal: "≤ \(decimal(Self.goal, places: 2))", met: ratio <= Self.goal)]
    }

    /// One drop: the receiver shown first (sway tiles it left), the source started by `start`
    /// and found by its title, the drag played, and the time from the release to the receiver
    /// holding every byte.
    private func dropTime(
        round: Int, name: String, in daemon: BenchDaemon, environment: ChildEnvironment, from title: String,
        start: (String) throws -> Spawned
    ) throws -> Duration {
        let python = "/usr/bin/python3"
        let record = daemon.directory + "/\(name)-\(round)"
        let receiver = try Spawned.start([python, daemon.directory + "/gtk.py", "drop", record], output: daemon.directory + "/receiver.log", environment: environment)
        defer { receiver.stop() }
        try DesktopDragSpeed.waitFor(record + ".ready")
        let source = try start(python)
        defer { source.stop() }
        let released = record + ".released"
        let pointer = try Spawned.start([python, daemon.directory + "/pointer.py", title, "^bench drop target$", released],
                                        output: daemon.directory + "/pointer.log", environment: environment)
        guard pointer.wait() == 0 else {
            throw BenchError("the virtual pointer failed: \(String((try? DesktopDragSpeed.read(daemon.directory + "/pointer.log")) ?? "").suffix(600))")
        }
        try DesktopDragSpeed.waitFor(record)
        let text = try DesktopDragSpeed.read(record).split(separator: " ")
        guard text.count == 2, Int(text[0]) == size, let received = Double(text[1]), let release = Double(try DesktopDragSpeed.read(released).trimmingSpaces),
              received >= release, received - release < 3600 else {
            throw BenchError("the GTK application received \(text.first ?? "nothing"), not \(size) bytes")
        }
        return .seconds(received - release)
    }

    private func skipped(_ reason: String) -> BenchRow {
        BenchRow(scenario: scenario, ours: "—", baseline: reason, ratio: nil, goal: "≤ \(decimal(Self.goal, places: 2))", met: nil)
    }

    /// GTK 3 under Wayland: `drop RECORD` shows a window taking one image/png drop and writes
    /// RECORD ("BYTES MONOTONIC-SECONDS") once it holds the data; `source FILE` shows a window
    /// whose drag offers FILE as image/png.
    static let gtk = """
        import os, sys, time
        import gi
        gi.require_version("Gtk", "3.0")
        gi.require_version("Gdk", "3.0")
        from gi.repository import Gdk, GLib, Gtk
        mode, path = sys.argv[1], sys.argv[2]
        def write(target, text):
            with open(target + ".part", "w") as out: out.write(text)
            os.rename(target + ".part", target)
        if mode == "source":
            window = Gtk.Window(title="bench drag source")
            box = Gtk.EventBox()
            box.add(Gtk.Label(label="drag me"))
            window.add(box)
            targets = Gtk.TargetList.new([])
            targets.add(Gdk.Atom.intern("image/png", False), 0, 0)
            box.drag_source_set(Gdk.ModifierType.BUTTON1_MASK, [], Gdk.DragAction.COPY)
            box.drag_source_set_target_list(targets)
            with open(path, "rb") as image: payload = image.read()
            box.connect("drag-data-get", lambda w, c, data, i, t: data.set(data.get_target(), 8, payload))
            box.connect("drag-end", lambda *_: GLib.timeout_add(300, Gtk.main_quit))
        else:
            window = Gtk.Window(title="bench drop target")
            area = Gtk.Label(label="drop here")
            window.add(area)
            area.drag_dest_set(Gtk.DestDefaults.ALL, [Gtk.TargetEntry.new("image/png", 0, 0)], Gdk.DragAction.COPY)
            def received(widget, context, x, y, data, info, time_):
                raw = data.get_data() or b""
                write(path, "%d %.6f" % (len(raw), time.monotonic()))
                Gtk.drag_finish(context, True, False, time_)
                GLib.timeout_add(300, Gtk.main_quit)
            area.connect("drag-data-received", received)
            window.connect("map-event", lambda *_: write(path + ".ready", "ready"))
        window.connect("destroy", Gtk.main_quit)
        window.show_all()
        Gtk.main()
        """

    /// The virtual pointer: `FROM TO RELEASED` waits until sway shows windows titled FROM and
    /// TO (regular expressions) side by side, presses in the middle of FROM, moves in steps to
    /// the middle of TO, and writes RELEASED (CLOCK_MONOTONIC seconds) just before it sends
    /// the release.
    static let pointer = """
        import json, os, re, socket, struct, subprocess, sys, time
        source, target, released = sys.argv[1], sys.argv[2], sys.argv[3]
        path = os.environ["WAYLAND_DISPLAY"]
        def windows():
            tree = json.loads(subprocess.run(["swaymsg", "-s", swaysock, "-r", "-t", "get_tree"], capture_output=True, check=True).stdout)
            found = []
            def walk(node):
                if node.get("pid") and node.get("window_rect"):
                    r, w = node["rect"], node["window_rect"]
                    found.append((node.get("name") or "", r["x"] + w["x"], r["y"] + w["y"], w["width"], w["height"]))
                for child in node.get("nodes", []) + node.get("floating_nodes", []): walk(child)
            walk(tree)
            return found
        runtime = os.path.dirname(path)
        swaysock = next(os.path.join(runtime, n) for n in os.listdir(runtime) if n.startswith("sway-ipc."))
        deadline = time.monotonic() + 30
        while True:
            found = windows()
            a = [w for w in found if re.search(source, w[0])]
            b = [w for w in found if re.search(target, w[0])]
            if a and b and (a[0][1] + a[0][3] <= b[0][1] or b[0][1] + b[0][3] <= a[0][1]): break
            if time.monotonic() > deadline: sys.exit("no windows %r and %r side by side: %r" % (source, target, found))
            time.sleep(0.05)
        outputs = json.loads(subprocess.run(["swaymsg", "-s", swaysock, "-r", "-t", "get_outputs"], capture_output=True, check=True).stdout)
        width, height = outputs[0]["rect"]["width"], outputs[0]["rect"]["height"]
        (fx, fy), (tx, ty) = [(w[1] + w[3] // 2, w[2] + w[4] // 2) for w in (a[0], b[0])]
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.connect(path)
        buffer = b""
        def send(obj, opcode, payload=b""):
            sock.sendall(struct.pack("<II", obj, ((8 + len(payload)) << 16) | opcode) + payload)
        def string(text):
            raw = text.encode() + b"\\0"
            return struct.pack("<I", len(raw)) + raw + b"\\0" * (-len(raw) % 4)
        next_id = [2]
        def roundtrip(globals_=None):
            global buffer
            next_id[0] += 1
            callback = next_id[0]
            send(1, 0, struct.pack("<I", callback))
            while True:
                while len(buffer) >= 8:
                    obj, word = struct.unpack("<II", buffer[:8])
                    size = word >> 16
                    if len(buffer) < size: break
                    body, buffer = buffer[8:size], buffer[size:]
                    if globals_ is not None and obj == 2 and word & 0xFFFF == 0:
                        name, length = struct.unpack("<II", body[:8])
                        globals_.setdefault(body[8:8 + length - 1].decode(), name)
                    if obj == callback: return
                chunk = sock.recv(65536)
                if not chunk: sys.exit("the compositor closed the connection")
                buffer += chunk
        globals_ = {}
        send(1, 1, struct.pack("<I", 2))
        roundtrip(globals_)
        next_id[0] += 1; seat = next_id[0]
        send(2, 0, struct.pack("<I", globals_["wl_seat"]) + string("wl_seat") + struct.pack("<II", 1, seat))
        next_id[0] += 1; manager = next_id[0]
        send(2, 0, struct.pack("<I", globals_["zwlr_virtual_pointer_manager_v1"]) + string("zwlr_virtual_pointer_manager_v1") + struct.pack("<II", 1, manager))
        next_id[0] += 1; pointer = next_id[0]
        send(manager, 0, struct.pack("<II", seat, pointer))
        roundtrip()
        start = time.monotonic()
        def step(opcode, payload, pause):
            send(pointer, opcode, payload)
            send(pointer, 4)
            roundtrip()
            time.sleep(pause)
        now = lambda: int((time.monotonic() - start) * 1000) & 0xFFFFFFFF
        step(1, struct.pack("<IIIII", now(), fx, fy, width, height), 0.15)
        step(2, struct.pack("<III", now(), 0x110, 1), 0.15)
        for fraction in (0.05, 0.3, 0.7, 1.0):
            x, y = fx + int((tx - fx) * fraction), fy + int((ty - fy) * fraction)
            step(1, struct.pack("<IIIII", now(), x, y, width, height), 0.15)
        step(1, struct.pack("<IIIII", now(), tx + 5, ty + 5, width, height), 0.4)
        with open(released, "w") as out: out.write("%.6f" % time.monotonic())
        step(2, struct.pack("<III", now(), 0x110, 0), 0)
        """
}

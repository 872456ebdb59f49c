#if canImport(Glibc)
import Glibc
#endif

/// A drag from a terminal into a GUI application (issue 42), on the bench's own Xvfb with a
/// daemon that starts its bridge there: the time from the release of the button over a GTK 3
/// application (python3-gi) to that application holding every byte of a 20 MiB PNG dragged
/// with `pb drag --desktop`, xdotool pressing, moving and releasing the pointer; against the
/// same application reading the same bytes from the clipboard `xclip -i` owns: what GTK
/// receives of a plain X11 selection at best, over the same INCR path a drop's data takes.
struct DesktopDragSpeed {
    /// Rounds of each, alternating; the best of each is reported.
    let rounds: Int
    let size: Int
    let progress: (String) -> Void

    private var pb: String { Spawned.ownDirectory + "/pb" }
    static let goal = 1.25

    private var scenario: String {
        "Desktop drag, X11: release over a GTK 3 application to its holding all \(size >> 20) MiB of a `pb drag --desktop` PNG (best of \(rounds))"
    }

    func rows() async throws -> [BenchRow] {
        let server: XServer
        switch XServer.start(requiring: ["xclip", "xdotool"]) {
        case .success(let started): server = started
        case .failure(let reason): return [skipped(reason.description)]
        }
        defer { server.stop() }
        guard let xdotool = Spawned.find("xdotool"), let xclip = Spawned.find("xclip") else { return [skipped("xdotool or xclip not installed")] }
        let python = "/usr/bin/python3"
        guard (try? Spawned.start([python, "-c", "import gi; gi.require_version('Gtk', '3.0'); from gi.repository import Gtk"]).wait()) == 0 else {
            return [skipped("python3-gi with GTK 3 not installed")]
        }
        let daemon = try await BenchDaemon.start(display: ["DISPLAY": server.display])
        defer { daemon.stop() }
        _ = try BridgeStatusWatch(daemon).bridging()
        let display = ChildEnvironment(setting: ["DISPLAY": server.display], removing: ["WAYLAND_DISPLAY"])
        let pbEnvironment = ChildEnvironment(setting: ["PASTEBOARD_SOCKET": daemon.socketPath], removing: ["DISPLAY", "WAYLAND_DISPLAY"])
        let script = daemon.directory + "/gtk-receiver.py"
        try Self.write(Self.receiver, to: script)
        let image = daemon.directory + "/large.png"
        try Self.writePNGLike(image, size: size)

        var ours = Duration.seconds(1 << 40), theirs = ours
        for round in 1...rounds {
            progress("desktop drag, X11, \(size >> 20) MiB, round \(round) of \(rounds): a drop into GTK from pb drag --desktop, then GTK's clipboard read from xclip -i")
            // Ours: the pointer is parked where the handle opens, then dragged onto the window.
            try run([xdotool, "mousemove", "10", "10"], environment: display)
            let record = daemon.directory + "/dropped-\(round)"
            let receiver = try Spawned.start([python, script, "drop", record], output: daemon.directory + "/receiver.log", environment: display)
            defer { receiver.stop() }
            try Self.waitFor(record + ".ready")
            let source = try Spawned.start([pb, "drag", "--desktop", image], output: daemon.directory + "/pb-drag.log", environment: pbEnvironment)
            defer { source.stop() }
            let handle = try handleWindow(xdotool, environment: display, in: daemon)
            try run([xdotool, "mousemove", "--window", handle, "20", "20"], environment: display)
            try run([xdotool, "mousedown", "1"], environment: display)
            for (x, y) in [(120, 60), (300, 120), (420, 150), (440, 160)] {
                usleep(150_000)
                try run([xdotool, "mousemove", "\(x)", "\(y)"], environment: display)
            }
            usleep(400_000)
            let clock = ContinuousClock()
            let released = clock.now
            try run([xdotool, "mouseup", "1"], environment: display)
            try Self.waitFor(record)
            ours = min(ours, clock.now - released)
            try checkSize(record)
            _ = source.wait()

            // The baseline: the same application reading the same bytes from xclip's clipboard.
            let holder = try Spawned.start([xclip, "-selection", "clipboard", "-quiet", "-t", "image/png", "-i", image], environment: display)
            defer { holder.stop() }
            usleep(200_000)
            let read = daemon.directory + "/read-\(round)"
            let reader = try Spawned.start([python, script, "clipboard", read], output: daemon.directory + "/receiver.log", environment: display)
            guard reader.wait() == 0 else { throw BenchError("the GTK clipboard reader failed; see \(daemon.directory)/receiver.log") }
            try checkSize(read)
            theirs = min(theirs, .seconds(try seconds(in: read + ".seconds")))
        }
        let ratio = Figure.seconds(ours) / Figure.seconds(theirs)
        return [BenchRow(
            scenario: scenario, ours: Figure.milliseconds(ours),
            baseline: "\(Figure.milliseconds(theirs)) (the same GTK application reading the bytes from `xclip -i`'s CLIPBOARD)",
            ratio: ratio, goal: "≤ \(decimal(Self.goal, places: 2))", met: ratio <= Self.goal)]
    }

    private func skipped(_ reason: String) -> BenchRow {
        BenchRow(scenario: scenario, ours: "—", baseline: reason, ratio: nil, goal: "≤ \(decimal(Self.goal, places: 2))", met: nil)
    }

    /// The GTK 3 receiver: `drop RECORD` shows a window at (320, 40) taking one image/png drop
    /// and writes RECORD (the byte count) once it holds the data; `clipboard RECORD` times a
    /// read of the CLIPBOARD's image/png and writes RECORD and RECORD.seconds.
    static let receiver = """
        import sys, time
        import gi
        gi.require_version("Gtk", "3.0")
        gi.require_version("Gdk", "3.0")
        from gi.repository import Gdk, GLib, Gtk
        mode, record = sys.argv[1], sys.argv[2]
        def write(path, text):
            with open(path + ".part", "w") as out: out.write(text)
            import os; os.rename(path + ".part", path)
        if mode == "clipboard":
            clipboard = Gtk.Clipboard.get(Gdk.SELECTION_CLIPBOARD)
            started = time.monotonic()
            data = clipboard.wait_for_contents(Gdk.Atom.intern("image/png", False))
            elapsed = time.monotonic() - started
            raw = data.get_data() if data else b""
            write(record + ".seconds", "%.6f" % elapsed)
            write(record, str(len(raw)))
            sys.exit(0)
        window = Gtk.Window(title="bench drop target")
        window.set_default_size(240, 240)
        window.move(320, 40)
        area = Gtk.Label(label="drop here")
        window.add(area)
        area.drag_dest_set(Gtk.DestDefaults.ALL, [Gtk.TargetEntry.new("image/png", 0, 0)], Gdk.DragAction.COPY)
        def received(widget, context, x, y, data, info, time_):
            raw = data.get_data() or b""
            write(record, str(len(raw)))
            Gtk.drag_finish(context, True, False, time_)
            GLib.timeout_add(300, Gtk.main_quit)
        area.connect("drag-data-received", received)
        window.connect("map-event", lambda *_: write(record + ".ready", "ready"))
        window.show_all()
        Gtk.main()
        """

    /// The handle window of the one drag session on the desktop, once the bridge shows it.
    private func handleWindow(_ xdotool: String, environment: ChildEnvironment, in daemon: BenchDaemon) throws -> String {
        let output = daemon.directory + "/handle"
        for _ in 0..<300 {
            unlink(output)
            if try Spawned.start([xdotool, "search", "--name", "^Pasteboard: drag session"], output: output, environment: environment).wait() == 0,
               let id = try? Self.read(output).split(separator: "\n").first {
                return String(id)
            }
            usleep(50_000)
        }
        throw BenchError("the bridge showed no drag handle within 15 s")
    }

    private func run(_ command: [String], environment: ChildEnvironment) throws {
        let status = try Spawned.start(command, environment: environment).wait()
        guard status == 0 else { throw BenchError("\(command.joined(separator: " ")) exited with status \(status)") }
    }

    /// Polls for `path` every millisecond, for up to 60 s.
    static func waitFor(_ path: String) throws {
        for _ in 0..<60_000 {
            if access(path, F_OK) == 0 { return }
            usleep(1_000)
        }
        throw BenchError("\(path) did not appear within 60 s")
    }

    private func checkSize(_ record: String) throws {
        let text = try Self.read(record)
        guard Int(text.trimmingSpaces) == size else { throw BenchError("the GTK application received \(text) bytes, not \(size)") }
    }

    private func seconds(in path: String) throws -> Double {
        guard let value = Double(try Self.read(path).trimmingSpaces), value >= 0, value < 3600 else { throw BenchError("no time in \(path)") }
        return value
    }

    static func read(_ path: String) throws -> String {
        guard let file = fopen(path, "r") else { throw BenchError("cannot read \(path)") }
        defer { fclose(file) }
        var bytes = [UInt8](repeating: 0, count: 4096)
        let count = fread(&bytes, 1, bytes.count, file)
        return String(decoding: bytes[..<count], as: UTF8.self)
    }

    static func write(_ text: String, to path: String) throws {
        guard let file = fopen(path, "w") else { throw BenchError("cannot write \(path)") }
        fputs(text, file)
        fclose(file)
    }

    /// `size` bytes that pb sniffs as a PNG: the signature, then a pattern of every byte value.
    static func writePNGLike(_ path: String, size: Int) throws {
        guard let file = fopen(path, "w") else { throw BenchError("cannot write \(path)") }
        defer { fclose(file) }
        var chunk = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
        chunk.replaceSubrange(0..<8, with: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
        var remaining = size
        var first = true
        while remaining > 0 {
            let count = min(remaining, chunk.count)
            guard fwrite(chunk, 1, count, file) == count else { throw BenchError("cannot write \(path)") }
            if first { chunk.replaceSubrange(0..<8, with: [0, 1, 2, 3, 4, 5, 6, 7]); first = false }
            remaining -= count
        }
    }
}

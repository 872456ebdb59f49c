#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import PasteboardSystem
import PasteboardX11

/// The X11 bridge's selection state machines — the reader the importer runs (`SelectionReader`:
/// TARGETS, direct and INCR conversions) and the owner the exporter runs (`SelectionOwner`:
/// requests, MULTIPLE, INCR, several requestors at once) — on a real `X11Connection` to a
/// scripted X server (`ScriptedXServer`) that plays the server and the other clients as the
/// input says.
///
/// The input's first byte picks the machine, the next three the client's own settings (the
/// reader's read size; the owner's chunk size, what its provider makes and how it writes);
/// the rest is the server's script. Invariants: nothing traps; the reader's TARGETS hold at most
/// `SelectionReader.maximumTargets`, every read delivers exactly the bytes it reports, and the
/// connection's stored answers and queued events stay within their bounds; the owner never
/// streams more than `SelectionOwner.maximumStreams` conversions, nor more than
/// `maximumStreamsPerRequestor` to one requestor, and every answer it completes holds exactly
/// its provider's bytes (`OwnerPlay`).
enum X11SessionFuzzing {
    static func run(_ input: UnsafeRawBufferPointer) -> String {
        guard input.count >= 4 else { return "short" }
        let settings = Array(input.prefix(4))
        let script = FuzzScript(Array(input.dropFirst(4)))
        let server: ScriptedXServer
        do { server = try ScriptedXServer(script: script) } catch { return "no socket pair: \(error)" }
        let setup = SetupInfo(
            root: WindowID(ScriptedXServer.setupRoot), idBase: ScriptedXServer.clientIDBase, idMask: ScriptedXServer.clientIDMask,
            maximumRequestLength: 65535)
        let connection = X11Connection.attached(descriptor: server.clientDescriptor, setup: setup)
        let summary: String
        if settings[0] % 2 == 0 {
            let thread = ServerThread(server: server, play: ReaderPlay())
            summary = "reader: " + runReader(connection, readSize: [64, 4096, 1 << 20][Int(settings[1]) % 3])
            connection.close()
            thread.join()
        } else {
            let sizes: [Int?] = [0, 1, 5, 100, 4095, 4096, 4097, 20000, nil]
            let content = OfferedContent(
                sizes: [sizes[Int(settings[2] & 0x0f) % sizes.count], sizes[Int(settings[2] >> 4) % sizes.count], sizes[Int(settings[3] & 0x0f) % sizes.count]],
                pieceBytes: [1, 7, 100, 1000, 5000][Int(settings[3] >> 4) % 5])
            let thread = ServerThread(server: server, play: OwnerPlay(content: content))
            summary = "owner: " + runOwner(connection, chunkBytes: [64, 1000, 4096, 65536][Int(settings[1]) % 4], content: content)
            connection.close()
            thread.join()
        }
        return summary
    }

    private static func runReader(_ connection: X11Connection, readSize: Int) -> String {
        let reader: SelectionReader
        do {
            reader = try SelectionReader(connection: connection, timeout: .milliseconds(3))
        } catch { return "no reader: \(error)" }
        reader.readSize = readSize
        var targets = ["UTF8_STRING"]
        do {
            let offered = try reader.readTargets(selection: "CLIPBOARD", until: X11Deadline(after: .milliseconds(40)))
            if offered.count > SelectionReader.maximumTargets {
                invariantViolated(.x11Session, "TARGETS gave \(offered.count) targets")
            }
            targets = Array(offered.prefix(3))
        } catch {
            checkBounds(connection)
            if case .connectionClosed = error { return "TARGETS: \(error)" }
        }
        checkBounds(connection)
        var results: [String] = []
        for target in targets where !target.isEmpty {
            var delivered = 0
            do {
                let data = try reader.read(selection: "CLIPBOARD", target: target, until: X11Deadline(after: .milliseconds(40))) { chunk in
                    delivered += chunk.count
                }
                if data.byteCount != delivered {
                    invariantViolated(.x11Session, "a read of \(target) reported \(data.byteCount) bytes and delivered \(delivered)")
                }
                results.append("\(target): \(delivered) bytes")
            } catch {
                results.append("\(target): \(error)")
                if case .connectionClosed = error { break }
            }
            checkBounds(connection)
        }
        return results.joined(separator: "; ")
    }

    private static func runOwner(_ connection: X11Connection, chunkBytes: Int, content: OfferedContent) -> String {
        let owner: SelectionOwner
        do {
            owner = try SelectionOwner(
                connection: connection, selection: "CLIPBOARD", targets: content.targets,
                sizing: try SelectionTransferSizing(maximumRequestBytes: connection.maximumRequestBytes, preferredChunkBytes: chunkBytes),
                timeout: .milliseconds(5), providerTimeout: .milliseconds(20)
            ) { request, writer in
                guard let bytes = content.bytes(for: request.target) else {
                    try await writer.write([UInt8](repeating: 0x55, count: content.pieceBytes))
                    throw ScriptedProviderFailure()
                }
                var offset = 0
                while offset < bytes.count {
                    let end = min(bytes.count, offset + content.pieceBytes)
                    try await writer.write(Array(bytes[offset..<end]))
                    offset = end
                }
            }
            try owner.acquire()
        } catch { return "not owner: \(error)" }
        var reports = 0
        do {
            let reason = try owner.run { _ in
                reports += 1
                let streams = owner.streamsUnderWay
                if streams.all > SelectionOwner.maximumStreams || streams.busiestRequestor > SelectionOwner.maximumStreamsPerRequestor {
                    invariantViolated(.x11Session, "\(streams.all) conversions stream at once, \(streams.busiestRequestor) to one requestor")
                }
            }
            return "\(reason) after \(reports) reports"
        } catch {
            return "\(reports) reports, then \(error)"
        }
    }

    private static func checkBounds(_ connection: X11Connection) {
        let answers = connection.pendingAnswerCount
        if answers.stored + answers.awaited > X11Connection.batchLimit {
            invariantViolated(.x11Session, "\(answers.stored) answers stored and \(answers.awaited) awaited after a conversion")
        }
        if connection.queuedEventCount > X11Connection.eventQueueLimit {
            invariantViolated(.x11Session, "\(connection.queuedEventCount) events queued")
        }
    }
}

/// What the scripted provider throws for a target it fails.
struct ScriptedProviderFailure: Error {}

/// The scripted server's thread (a `BlockingWork` job), waited for at the end of a run (a run's
/// server never outlives it).
private final class ServerThread {
    private let finished = DispatchSemaphore(value: 0)
    private let started: Bool

    /// The body the thread runs, handed over once.
    ///
    /// `@unchecked Sendable` is sound: the server and play are made by the fuzzer's thread,
    /// touched only by the job's thread until it signals `finished`, and the fuzzer's thread
    /// does not touch them meanwhile (the client side reaches the server only through its socket).
    private final class Body: @unchecked Sendable {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }

    init(server: ScriptedXServer, play: some ServerPlay) {
        let body = Body { server.serve(play) }
        let finished = finished
        started = BlockingWork.start {
            body.run()
            finished.signal()
        }
        if !started {
            // No thread: close the server's end so the client's first wait ends at once.
            server.hangUp()
        }
    }

    func join() {
        if started { finished.wait() }
    }
}

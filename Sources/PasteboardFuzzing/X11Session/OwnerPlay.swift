/// The other side of `SelectionOwner`: the applications asking it for the selection, as the
/// script plays them. They request any target into any property at any time (MULTIPLE with
/// pair lists of any length and shape), read or never read INCR chunks, ask again into a
/// property mid-transfer, destroy their windows, forge events, take the selection away.
///
/// Invariant checked here, from what the owner writes: every answer it completes (a whole
/// property named by its SelectionNotify, or an INCR transfer's zero-length end) holds exactly
/// the bytes the provider made for that target; a target whose provider fails is never
/// completed.
final class OwnerPlay: ServerPlay {
    /// The requestors' windows (not in the client's id range).
    static let requestors: [UInt32] = (1...6).map { 0x0080_0000 + $0 }

    /// What the provider makes for each offered target (the fuzzer's client side uses the same).
    let content: OfferedContent

    private struct Answer {
        let target: String
        var bytes: [UInt8]
        let incremental: Bool
    }

    /// What the owner wrote into each requestor property, until its answer completes.
    private var answers: [ScriptedXServer.PropertyKey: Answer] = [:]
    private var selection: UInt32 = 0

    init(content: OfferedContent) {
        self.content = content
    }

    func owner(of selection: UInt32, on server: ScriptedXServer) -> UInt32 {
        let owner = server.selectionOwners[selection] ?? 0
        return server.script.chance(6) ? server.script.u32() : owner
    }

    func answer(_ request: ScriptedXServer.Request, on server: ScriptedXServer) {
        guard request.opcode == 25, request.body.count >= 40 else { return }  // SendEvent
        let event = Array(request.body[8..<40])
        guard event[0] & 0x7f == 31 else { return }  // SelectionNotify
        let field = { (offset: Int) in (0..<4).reduce(UInt32(0)) { $0 | UInt32(event[offset + $1]) << (8 * $1) } }
        let key = ScriptedXServer.PropertyKey(window: field(8), property: field(20))
        guard key.property != 0, let answer = answers[key], !answer.incremental else { return }
        // A whole answer is complete once the owner names its property.
        answers[key] = nil
        check(answer)
    }

    func propertyChanged(_ key: ScriptedXServer.PropertyKey, by request: ScriptedXServer.Request, on server: ScriptedXServer) {
        if key.window & ~ScriptedXServer.clientIDMask == ScriptedXServer.clientIDBase {
            // The owner's own window: the zero-length append that asks the server for a time.
            if !server.script.chance(6) { server.event(propertyNotify: key, deleted: false) }
            return
        }
        guard let type = server.properties[key]?.type, let name = server.name(of: type) else { return }
        let data = server.properties[key]?.data ?? []
        let deletedSinceWrite = deleted.remove(key) != nil
        if name == "INCR" {
            answers[key] = Answer(target: "", bytes: [], incremental: true)
        } else if var answer = answers[key], answer.incremental, deletedSinceWrite {
            // The next chunk, which the owner may send only once the last one was deleted.
            if answer.target.isEmpty { answer = Answer(target: name, bytes: [], incremental: true) }
            if data.isEmpty {
                answers[key] = nil
                check(answer)
            } else {
                answer.bytes += data
                answers[key] = answer
            }
        } else if content.isOffered(name) {
            answers[key] = Answer(target: name, bytes: data, incremental: false)
        }
    }

    /// Requestor properties deleted (by the requestor's read) since the owner last wrote them.
    private var deleted: Set<ScriptedXServer.PropertyKey> = []

    func propertyDeleted(_ key: ScriptedXServer.PropertyKey, on server: ScriptedXServer) {}

    func takeTurn(on server: ScriptedXServer) {
        let script = server.script
        let requestor = Self.requestors[script.pick(Self.requestors.count)]
        switch script.pick(20) {
        case 0...5:
            request(from: requestor, on: server)
        case 6...10:
            // A requestor reads: it deletes a property the owner wrote (the INCR header or a chunk).
            let written = server.properties.keys.filter { Self.requestors.contains($0.window) }.sorted { ($0.window, $0.property) < ($1.window, $1.property) }
            guard !written.isEmpty else { return }
            let key = written[script.pick(written.count)]
            if script.chance(10) {
                // Forged: another client's SendEvent claims the property is gone; it is still there.
                server.event(propertyNotify: key, deleted: true, forged: true)
            } else {
                server.properties[key] = nil
                deleted.insert(key)
                server.event(propertyNotify: key, deleted: true)
            }
        case 11:
            let forged = script.chance(60)
            server.event(code: 17, fields: le32(requestor) + le32(requestor), forged: forged)  // DestroyNotify
            if !forged {
                for key in server.properties.keys where key.window == requestor { server.properties[key] = nil }
                for key in answers.keys where key.window == requestor { answers[key] = nil }
            }
        case 12:
            let owner = server.selectionOwners[selection] ?? 0
            server.event(code: 29, fields: le32(server.time) + le32(owner) + le32(selection), forged: script.chance(128))  // SelectionClear
        case 13:
            server.error(code: 3, value: requestor, request: .init(opcode: 18, data: 0, body: []))  // BadWindow, for the latest request
        case 14:
            server.garbage()
        default:
            break
        }
    }

    /// A SelectionRequest from `requestor`: any target, property and time the script picks.
    private func request(from requestor: UInt32, on server: ScriptedXServer) {
        let script = server.script
        selection = server.atom("CLIPBOARD")
        let names = ["TARGETS", "TIMESTAMP", "MULTIPLE", "INCR"] + content.targets + ["STRING", "application/x-unknown"]
        let target = script.chance(12) ? script.u32() : server.atom(names[script.pick(names.count)])
        let property: UInt32 = [server.atom("P1"), server.atom("P2"), server.atom("P3"), 0][script.pick(4)]
        let time: UInt32 = [0, server.time, 1, script.u32()][script.pick(4)]
        let selection = script.chance(10) ? 1 : self.selection
        // A new request into a property ends what the owner was writing there (it abandons an
        // unfinished answer), and so for the properties of a MULTIPLE's pairs.
        let isMultiple = server.name(of: target) == "MULTIPLE"
        for named in [property] + (isMultiple ? [server.atom("M1"), server.atom("M2")] : []) {
            let key = ScriptedXServer.PropertyKey(window: requestor, property: named)
            answers[key] = nil
            deleted.remove(key)
        }
        if isMultiple, property != 0 {
            // The pairs the owner reads: of any count, type and shape.
            let count = script.chance(20) ? script.pick(6000) : script.pick(5)
            let pairs = (0..<count).flatMap { _ in
                le32(server.atom(names[script.pick(names.count)])) + le32([server.atom("M1"), server.atom("M2"), 0][script.pick(3)])
            }
            let type = script.chance(20) ? script.u32() : server.atom("ATOM_PAIR")
            server.properties[.init(window: requestor, property: property)] = .init(type: type, format: script.chance(10) ? 8 : 32, data: pairs)
        }
        let owner = script.chance(10) ? script.u32() : (server.selectionOwners[selection] ?? 0)
        server.event(code: 30, fields: le32(time) + le32(owner) + le32(requestor) + le32(selection) + le32(target) + le32(property))
    }

    private func check(_ answer: Answer) {
        guard content.isOffered(answer.target) else { return }
        guard let expected = content.bytes(for: answer.target) else {
            invariantViolated(.x11Session, "a conversion to \(answer.target), whose provider fails, was completed with \(answer.bytes.count) bytes")
        }
        guard answer.bytes == expected else {
            invariantViolated(.x11Session, "a completed conversion to \(answer.target) holds \(answer.bytes.count) bytes, not the provider's \(expected.count)"
                + (answer.incremental ? " (through INCR)" : ""))
        }
    }
}

/// What the fuzzer's selection owner offers and its provider writes: a size per target (or a
/// provider that fails partway), bytes made from the target's index, written in pieces of
/// `pieceBytes`.
struct OfferedContent: Sendable {
    let targets = ["UTF8_STRING", "image/png", "text/html"]
    /// Bytes per target; nil: the provider throws after writing `pieceBytes`.
    let sizes: [Int?]
    let pieceBytes: Int

    func isOffered(_ target: String) -> Bool { targets.contains(target) }

    func bytes(for target: String) -> [UInt8]? {
        guard let index = targets.firstIndex(of: target), let size = sizes[index] else { return nil }
        return (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ index &* 13) }
    }
}

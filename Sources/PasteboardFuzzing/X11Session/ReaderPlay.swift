/// The other side of `SelectionReader`: the application owning the selection, as the script
/// plays it. It converts into the reader's property directly or through INCR (chunks of the
/// script's sizes, TARGETS lists of any length), refuses, stays silent, exits mid-transfer
/// (XFIXES), stalls an INCR transfer, or answers another requestor's property.
final class ReaderPlay: ServerPlay {
    static let ownerWindow: UInt32 = 0x0060_0001

    private struct Transfer {
        let key: ScriptedXServer.PropertyKey
        let type: UInt32
        var chunks: [[UInt8]]
    }

    private var transfer: Transfer?
    /// A conversion the owner was silent on, answered late at a later turn.
    private var late: (requestor: UInt32, selection: UInt32, target: UInt32, property: UInt32)?

    func owner(of selection: UInt32, on server: ScriptedXServer) -> UInt32 {
        server.script.chance(12) ? 0 : Self.ownerWindow
    }

    func answer(_ request: ScriptedXServer.Request, on server: ScriptedXServer) {
        guard request.opcode == 24 else { return }  // ConvertSelection; the rest needs no answer here
        let (requestor, selection, target, property) = (request.u32(0), request.u32(4), request.u32(8), request.u32(12))
        let script = server.script
        let key = ScriptedXServer.PropertyKey(window: requestor, property: property)
        let isTargets = server.name(of: target) == "TARGETS"
        transfer = nil
        switch script.pick(10) {
        case 0:
            server.event(selectionNotify: requestor, selection: selection, target: target, property: 0)
        case 1:
            late = (requestor, selection, target, property)
        case 2:
            server.event(ownerGone: requestor, selection: selection, kind: UInt8(1 + script.pick(2)))
        case 3, 4, 5:
            let value = isTargets ? targetList(count: script.pick(script.chance(20) ? 3000 : 40), server) : bytes(script.pick(700), script)
            let type = isTargets ? (script.chance(20) ? script.u32() : 4) : (script.chance(20) ? script.u32() : target)
            let format: UInt8 = isTargets ? 32 : (script.chance(10) ? 16 : 8)
            server.properties[key] = .init(type: type, format: format, data: format == 16 && value.count % 2 == 1 ? Array(value.dropLast()) : value)
            server.event(propertyNotify: key, deleted: false)
            let named = script.chance(10) ? script.u32() : property
            server.event(selectionNotify: script.chance(8) ? script.u32() : requestor, selection: selection, target: target, property: named)
        default:
            // INCR: the header, then one chunk per deletion, ending with a zero-length one
            // (or never, if the script runs out first: an owner dripping without end).
            let count = script.chance(30) ? 200 + script.pick(4000) : 1 + script.pick(6)
            var chunks: [[UInt8]] = []
            for _ in 0..<count {
                chunks.append(isTargets ? targetList(count: script.pick(600), server) : bytes(script.pick(4000), script))
            }
            chunks.append([])
            let incr = server.atom("INCR")
            server.properties[key] = .init(type: incr, format: 32, data: le32(UInt32(script.pick(1 << 16))))
            server.event(propertyNotify: key, deleted: false)
            server.event(selectionNotify: requestor, selection: selection, target: target, property: property)
            transfer = Transfer(key: key, type: isTargets ? 4 : target, chunks: chunks)
        }
    }

    func propertyChanged(_ key: ScriptedXServer.PropertyKey, by request: ScriptedXServer.Request, on server: ScriptedXServer) {}

    /// The reader deleted the header or a chunk: the next chunk, unless the owner stalls.
    func propertyDeleted(_ key: ScriptedXServer.PropertyKey, on server: ScriptedXServer) {
        guard var transfer, transfer.key == key, !transfer.chunks.isEmpty else { return }
        if server.script.chance(8) { return }  // a stalled owner: the reader's bounds end it
        let chunk = transfer.chunks.removeFirst()
        let type = server.script.chance(4) ? server.script.u32() : transfer.type
        server.properties[key] = .init(type: type, format: transfer.type == 4 ? 32 : 8, data: chunk)
        server.event(propertyNotify: key, deleted: false)
        self.transfer = transfer.chunks.isEmpty ? nil : transfer
    }

    func takeTurn(on server: ScriptedXServer) {
        let script = server.script
        switch script.pick(16) {
        case 0:
            if let late {
                server.event(selectionNotify: late.requestor, selection: late.selection, target: late.target, property: late.property)
                self.late = nil
            }
        case 1:
            // Forged: a client's SendEvent of events only the server makes.
            server.event(code: [17, 28, 29][script.pick(3)], fields: (0..<5).flatMap { _ in le32(script.u32()) }, forged: true)
        case 2:
            server.garbage()
        case 3:
            if let key = transfer?.key { propertyDeleted(key, on: server) }  // a chunk without a deletion
        default:
            break
        }
    }

    private func targetList(count: Int, _ server: ScriptedXServer) -> [UInt8] {
        let names = ["UTF8_STRING", "STRING", "TEXT", "image/png", "text/html", "TARGETS", "MULTIPLE", "x-kde-passwordManagerHint"]
        return (0..<count).flatMap { index in
            le32(server.script.chance(16) ? server.script.u32() : server.atom(index < names.count ? names[index] : "T\(index % 1500)"))
        }
    }

    private func bytes(_ count: Int, _ script: FuzzScript) -> [UInt8] {
        let seed = script.byte()
        return (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) }
    }
}

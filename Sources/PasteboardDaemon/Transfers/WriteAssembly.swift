#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import NIOCore
import PasteboardProtocol
import PasteboardSystem
import PasteboardTypes

/// Collects the data frames of one `write`, `drag` or `add` request into items, checking limits
/// as bytes arrive. Promised and file representations carry no data frames; only eager ones are
/// waited for. Large eager ones are stored in the data directory as they arrive (see
/// `IncomingBytes`) when the write has a `SpoolPlace` and the item is no secret: a sensitive
/// item, or one carrying a sensitivity marker's type, never touches the disk. A class: it lives
/// in the connection's table while bytes arrive and is updated in place.
final class WriteAssembly {
    /// Where the assembled items go.
    enum Target: Sendable {
        /// A pasteboard's content (`write`), cleared after `expire` seconds when given.
        case pasteboard(String, expire: Double?, ifChangeCount: Int?, origin: ChangeOrigin?)
        /// A new drag session (`drag`).
        case drag(DragRequest)
        /// A drag session in flight (`add`).
        case add(session: Int)
    }

    let target: Target
    private let declared: [ItemInfo]
    private let types: [[TypeIdentifier]]
    /// Each eager representation's limit, in the order of `eager`: on disk, or in memory.
    private let limits: [RepresentationLimit]
    private let source: any PromiseOwner
    private let window: SharedReceiveWindow
    /// Positions (item, representation) of the eager representations, in the order their bytes arrive.
    private let eager: [(item: Int, representation: Int)]
    private var eagerIndex = 0
    /// Where large eager bytes of items that are no secret are stored; nil keeps all in memory.
    private let place: SpoolPlace?
    /// Whether each item may be stored on disk (it is neither sensitive nor marked).
    private let storable: [Bool]
    /// Tells the sender the bytes a spool wrote to disk, as credit (see `IncomingBytes`).
    private let grant: @Sendable (Int) async -> Void
    /// The bytes of the representation arriving now, and of the ones before it.
    private var incoming: IncomingBytes?
    private var received: [IncomingBytes] = []

    /// Validates the request; throws the error to answer it with. `files` are the file
    /// representations' checks (`checkFiles(of:)`, done off the event loop); nil checks them here.
    convenience init(_ request: WriteRequest, source: any PromiseOwner, registry: TypeRegistry, configuration: DaemonConfiguration,
                     place: SpoolPlace? = nil, files: [String: FileCheck]? = nil,
                     sendCredit: @escaping @Sendable (Int) async -> Void = { _ in }) throws(ProtocolError) {
        if let failure = PasteboardName.validationFailure(request.pasteboard) {
            throw ProtocolError(.invalidArgument, failure)
        }
        if let expire = request.expire, let failure = SecondsLimit.validationFailure(expire) {
            throw ProtocolError(.invalidArgument, "'expire' \(failure)")
        }
        try self.init(.pasteboard(request.pasteboard, expire: request.expire, ifChangeCount: request.ifChangeCount, origin: request.origin), items: request.items, source: source,
                      registry: registry, configuration: configuration, place: place, files: files, sendCredit: sendCredit)
    }

    /// Validates items bound for `target`, whose large eager bytes go to `place` (nil: all in
    /// memory); throws the error to answer the request with. `sendCredit` sends the sender
    /// credit for bytes stored on disk (credit for bytes held in memory is `receive`'s result).
    /// When the sizes declared for storing leave too little free space, the write is refused
    /// (`storage-failed`) before any byte arrives. `files`: as in the other initializer.
    init(_ target: Target, items requestItems: [ItemInfo], source: any PromiseOwner, registry: TypeRegistry, configuration: DaemonConfiguration,
         place: SpoolPlace? = nil, files: [String: FileCheck]? = nil,
         sendCredit: @escaping @Sendable (Int) async -> Void = { _ in }) throws(ProtocolError) {
        let label: String
        if case .pasteboard(let name, _, _, _) = target { label = name } else { label = "" }
        if case .drag(let drag) = target {
            if requestItems.isEmpty { throw ProtocolError(.invalidArgument, "a drag needs at least one item") }
            if let timeout = drag.timeout, let failure = SecondsLimit.validationFailure(timeout) {
                throw ProtocolError(.invalidArgument, "a drag's timeout \(failure)")
            }
        }
        if requestItems.count > configuration.maxItemsPerPasteboard {
            throw ProtocolError(.tooLarge, "\(requestItems.count) items exceed the limit of \(configuration.maxItemsPerPasteboard) per pasteboard")
        }
        // A secret is decided by the item's flag and its types before any byte arrives: a KDE
        // hint's value comes too late to keep bytes already stored off the disk.
        let storable = requestItems.map { item in
            item.sensitive != true && !item.representations.contains {
                SensitivityMarker.isConcealedType($0.type) || SensitivityMarker.isKDEHint($0.type)
            }
        }
        var types: [[TypeIdentifier]] = []
        var eager: [(item: Int, representation: Int)] = []
        var limits: [RepresentationLimit] = []
        var promises = Set<Int>()
        var items = requestItems
        for (itemIndex, item) in requestItems.enumerated() {
            if item.representations.isEmpty {
                throw ProtocolError(.invalidArgument, "item \(itemIndex) has no representations")
            }
            var itemTypes: [TypeIdentifier] = []
            // Looked up in a set: an item may list thousands of representations.
            var seen: Set<TypeIdentifier> = []
            for (index, representation) in item.representations.enumerated() {
                guard let type = registry.resolve(representation.type) ?? TypeIdentifier.wellFormed(representation.type) else {
                    throw ProtocolError(.unknownType, "'\(representation.type)' is not a type identifier or MIME type")
                }
                if !seen.insert(type).inserted {
                    throw ProtocolError(.invalidArgument, "item \(itemIndex) lists \(type) twice")
                }
                if let size = representation.size, size < 0 {
                    throw ProtocolError(.invalidArgument, "\(type) declares a negative size")
                }
                if representation.promise != nil, representation.file != nil {
                    throw ProtocolError(.invalidArgument, "\(type) is both a promise and a file")
                }
                if representation.openInPlace == true, representation.file == nil {
                    throw ProtocolError(.invalidArgument, "\(type) asks to be opened in place but is not a file")
                }
                if let promise = representation.promise {
                    if !promises.insert(promise).inserted {
                        throw ProtocolError(.invalidArgument, "promise \(promise) is given twice")
                    }
                } else if let path = representation.file {
                    items[itemIndex].representations[index].size = try Self.fileSize(path, type: type, checked: files?[path])
                } else {
                    let limit = RepresentationLimit(.of(sensitive: !storable[itemIndex], in: configuration), configuration: configuration)
                    if let size = representation.size, !limit.admits(size) {
                        throw limit.refusal(item: itemIndex, representation: index, type: type, size: size)
                    }
                    eager.append((itemIndex, index))
                    limits.append(limit)
                }
                itemTypes.append(type)
            }
            types.append(itemTypes)
        }
        // Every `items` and `changed` answer describing these items must fit in one frame. A
        // generous bound settles it for ordinary writes; only when the bound does not fit is
        // the worst-case answer encoded and measured.
        let limit = configuration.maxFrameLength - ProtocolLimits.headerLength
        if Self.summaryBound(requestItems, types: types, label: label, registry: registry) > limit {
            let summary = ItemsReply(pasteboard: label, changeCount: Int.max, items: zip(requestItems, types).map { item, types in
                ItemInfo(
                    representations: types.map {
                        RepresentationInfo(type: $0.rawValue, size: Int.max, mimeType: registry.preferredMIMEType(for: $0), unavailable: true)
                    },
                    suggestedName: item.suggestedName,
                    visibility: item.visibility
                )
            }, origin: ChangeOrigin(machine: String(repeating: "f", count: 32), name: String(repeating: "n", count: 255), clock: ChangeOrigin.clocks.upperBound),
               expiresIn: SecondsLimit.maximum)
            let summaryLength = MessageCodec.encode(.items(summary)).readableBytes + ProtocolLimits.headerLength
            if summaryLength > configuration.maxFrameLength {
                throw ProtocolError(
                    .tooLarge,
                    "describing these items takes \(summaryLength) bytes, more than the \(configuration.maxFrameLength)-byte frame limit"
                )
            }
        }
        if let place {
            var needed = 0
            for position in eager where storable[position.item] {
                let size = items[position.item].representations[position.representation].size ?? 0
                if size > SpoolPolicy.memoryLimit { needed = needed.addingSaturating(size) }
            }
            if needed > 0 {
                do {
                    try place.store.requireFree(needed)
                } catch {
                    throw Self.unchanged(error, target: target)
                }
            }
        }
        let window = SharedReceiveWindow(window: configuration.window)
        self.target = target
        self.declared = items
        self.types = types
        self.eager = eager
        self.source = source
        self.limits = limits
        self.window = window
        self.place = place
        self.storable = storable
        self.grant = { bytes in
            if let credit = window.consume(bytes) { await sendCredit(credit) }
        }
    }

    /// `error` as the answer to a write of `target`: a storage failure says the pasteboard kept
    /// its content, as a failed commit does.
    private static func unchanged(_ error: ProtocolError, target: Target) -> ProtocolError {
        guard error.code == .storageFailed, case .pasteboard(let name, _, _, _) = target else { return error }
        return ProtocolError(.storageFailed, "pasteboard '\(name)' was not changed: \(error.message)")
    }

    /// True when every eager representation's bytes have arrived.
    var isComplete: Bool { eagerIndex == eager.count }

    /// The size the representation whose bytes arrive next declared, if any.
    var nextDeclaredSize: Int? {
        guard eagerIndex < eager.count else { return nil }
        let position = eager[eagerIndex]
        return declared[position.item].representations[position.representation].size
    }

    /// The assembled items, once complete: stored bytes are synced (for a durable place) and
    /// named first. Throws `storage-failed` when storing fails; no stored file is left then.
    nonisolated(nonsending) func finish() async throws(ProtocolError) -> [StoredItem] {
        var contents: [StoredRepresentation.Content] = []
        for (index, bytes) in received.enumerated() {
            do {
                contents.append(try await bytes.finish())
            } catch {
                for rest in received[(index + 1)...] { await rest.abort() }
                throw Self.unchanged(error, target: target)
            }
        }
        received = []
        var next = contents.makeIterator()
        return declared.enumerated().map { itemIndex, item in
            var marked = item.sensitive == true
            let representations = item.representations.enumerated().map { index, info in
                let type = types[itemIndex][index]
                let representation: StoredRepresentation
                if let promise = info.promise {
                    representation = StoredRepresentation(type: type, content: .promise(.init(owner: source, id: promise)), size: info.size)
                } else if let path = info.file {
                    representation = StoredRepresentation(type: type, content: .file(path: path, openInPlace: info.openInPlace ?? false), size: info.size)
                } else {
                    switch next.next()! {
                    case .data(let chunks): representation = StoredRepresentation(type: type, chunks: chunks)
                    case .stored(let file): representation = StoredRepresentation(type: type, file: file)
                    case let other: representation = StoredRepresentation(type: type, content: other, size: nil)
                    }
                }
                if !marked, SensitivityMarker.marks(type.rawValue, value: representation.markerValue) { marked = true }
                return representation
            }
            return StoredItem(
                representations: representations,
                suggestedName: item.suggestedName,
                visibility: item.visibility ?? .all,
                writerPID: source.pid,
                isSensitive: marked
            )
        }
    }

    /// Stops the write (cancelled, failed, its client gone): spools in progress are closed and
    /// removed, and no credit for them is sent once this returns.
    nonisolated(nonsending) func abort() async {
        let all = received + (incoming.map { [$0] } ?? [])
        received = []
        incoming = nil
        for bytes in all { await bytes.abort() }
    }

    /// Takes one data frame; returns credit to grant now. Throws the error that fails the
    /// request (the caller then `abort`s it).
    func receive(_ frame: Frame) throws(ProtocolError) -> Int? {
        let bytes = frame.payload.readableBytes
        try window.receive(bytes)
        guard eagerIndex < eager.count else {
            throw ProtocolError(.invalidArgument, "data arrived after the last eager representation")
        }
        let position = eager[eagerIndex]
        let type = types[position.item][position.representation]
        let declaredSize = declared[position.item].representations[position.representation].size
        let current = incoming ?? IncomingBytes(place: storable[position.item] ? place : nil, expected: declaredSize, grant: grant)
        incoming = current
        let limit = limits[eagerIndex]
        if !limit.admits(current.count + bytes) {
            throw limit.refusal(item: position.item, representation: position.representation, type: type, size: nil)
        }
        // More than declared is refused at once, not at the end: a writer that declares 10 bytes
        // must not fill a stored file, or the disk, before its lie is seen.
        if let declaredSize, current.count + bytes > declaredSize {
            throw ProtocolError(.invalidArgument, "\(type) declared \(declaredSize) bytes but more arrived")
        }
        let consumed: Int
        do {
            consumed = try current.append(frame.payload)
        } catch {
            throw Self.unchanged(error, target: target)
        }
        if frame.isEnd {
            if let declaredSize, declaredSize != current.count {
                throw ProtocolError(.invalidArgument, "\(type) declared \(declaredSize) bytes but \(current.count) arrived")
            }
            received.append(current)
            incoming = nil
            eagerIndex += 1
        }
        return consumed > 0 ? window.consume(consumed) : nil
    }

    /// More bytes than the `items` answer describing these items can take: every string as if
    /// each byte needed a six-byte escape, every number at its longest, every optional member
    /// present. Measured against the frame limit before encoding the real answer.
    private static func summaryBound(_ items: [ItemInfo], types: [[TypeIdentifier]], label: String, registry: TypeRegistry) -> Int {
        // The origin (machine id, name up to 255 bytes, clock) and expiry add at most 1,800 bytes.
        var bound = 2048 + 6 * label.utf8.count
        for (item, itemTypes) in zip(items, types) {
            bound += 128 + 6 * (item.suggestedName?.utf8.count ?? 0)
            for type in itemTypes {
                bound += 160 + 6 * (type.rawValue.utf8.count + (registry.preferredMIMEType(for: type)?.utf8.count ?? 0))
            }
        }
        return bound
    }

    /// What `stat` and `access` say of a file representation's path: its size, or why it cannot be used.
    enum FileCheck: Sendable, Equatable {
        case size(Int)
        case refused(String)
    }

    /// Checks the absolute paths of `items`' file representations on a thread of their own
    /// (`BlockingWork`): a `stat` of a client-supplied path may block (a hung network file
    /// system, a FUSE server that does not answer), which must not hold the connection's event
    /// loop and every other client on it. No thread when there is no file.
    static func checkFiles(of items: [ItemInfo]) async -> [String: FileCheck] {
        let paths = Set(items.flatMap { $0.representations.compactMap(\.file) }.filter { $0.hasPrefix("/") })
        guard !paths.isEmpty else { return [:] }
        return await BlockingWork.run {
            Dictionary(uniqueKeysWithValues: paths.map { ($0, check($0)) })
        }
    }

    /// `stat` and `access` of `path` (blocking).
    private static func check(_ path: String) -> FileCheck {
        var info = stat()
        guard stat(path, &info) == 0 else { return .refused(SystemError.current) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { return .refused("not a regular file") }
        guard access(path, R_OK) == 0 else { return .refused(SystemError.current) }
        return .size(Int(info.st_size))
    }

    /// The size of a file representation's file, from its check (made now when nil); throws
    /// `invalid-argument` when it is no readable regular file.
    private static func fileSize(_ path: String, type: TypeIdentifier, checked: FileCheck?) throws(ProtocolError) -> Int {
        guard path.hasPrefix("/") else {
            throw ProtocolError(.invalidArgument, "the file of \(type) must be an absolute path, not '\(path)'")
        }
        switch checked ?? check(path) {
        case .size(let size): return size
        case .refused(let reason): throw ProtocolError(.invalidArgument, "cannot use \(path) for \(type): \(reason)")
        }
    }
}

extension SelectionReader {
    /// Streams `mimeType` of `offer` from its owner into `chunk`, in pieces as they arrive, until
    /// the owner closes the pipe; returns the byte count.
    ///
    /// Wayland's transfer is a pipe we make: the write end goes to the owner with `receive`, and
    /// we read until end of file. Whoever owns the selection is another program, so the wait is
    /// bounded: `timeout` is the longest the owner may stay silent (neither writing nor closing)
    /// before ``WaylandError/transferTimedOut(mimeType:bytesReceived:)``. An owner that exits
    /// before writing anything also closes the pipe; that end of file is told apart from an
    /// empty representation by a roundtrip to the compositor, which by then has withdrawn the
    /// offer: ``WaylandError/ownerGone(mimeType:)``. (Wayland gives no length, so an owner that
    /// dies part-way is not detectable; those bytes are returned as they came.)
    ///
    /// Cancelling the task stops the wait at once with `CancellationError`. Each wait for the
    /// owner is a poll(2) on the transfer's own dispatch queue, never on a Swift concurrency
    /// thread (a machine with two cores has two, and a silent owner would hold one for the whole
    /// timeout). `chunk` may suspend: the next read waits until it returns, so a consumer that
    /// forwards slowly (the bridge, into the daemon under flow control) leaves the rest in the
    /// pipe and the owner blocks on it, and memory stays at one chunk whatever the size.
    @discardableResult
    public func read(
        _ mimeType: String,
        from offer: SelectionOffer,
        timeout: Duration = .seconds(5),
        chunk: ([UInt8]) async throws -> Void
    ) async throws -> Int {
        try Task.checkCancellation()
        let pipe = try TransferPipe()
        try requestTransfer(mimeType, from: offer, into: pipe.writeEnd)
        pipe.closeWriteEnd()
        let received = try await pipe.drain(mimeType, timeout: timeout, chunk: chunk)
        if received == 0, try await ownerWithdrew(offer, timeout: timeout) {
            throw WaylandError.ownerGone(mimeType: mimeType)
        }
        return received
    }

    /// Reads `mimeType` of the current selection of `kind` whole; for small representations
    /// (text), where streaming buys nothing.
    public func readAll(_ mimeType: String, selection kind: SelectionKind = .clipboard, timeout: Duration = .seconds(5)) async throws -> [UInt8] {
        guard let offer = offer(kind) else { throw WaylandError.noSelection(kind) }
        var bytes: [UInt8] = []
        try await read(mimeType, from: offer, timeout: timeout) { bytes += $0 }
        return bytes
    }

    /// Whether `offer` is gone after the compositor caught up. Two roundtrips: the owner's exit
    /// and our first sync may reach the compositor in the same turn of its event loop.
    private func ownerWithdrew(_ offer: SelectionOffer, timeout: Duration) async throws -> Bool {
        for _ in 0..<2 {
            try await roundtrip(timeout: timeout)
            if self.offer(offer.kind)?.serial != offer.serial { return true }
        }
        return false
    }
}

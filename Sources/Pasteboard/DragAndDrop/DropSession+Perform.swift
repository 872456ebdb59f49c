extension DropSession {
    /// Performs the drop with `proposal` (`.copy` or `.move`), runs `body` with it, and finishes
    /// it: with success when `body` returns, with failure (the error's description as the
    /// message the source hears) when it throws, before the error is rethrown. So a destination
    /// cannot forget `finish`, and a source never deletes originals after a drop that failed.
    /// Returns nil without running `body` for `.forbidden` and `.cancel` (see `perform(_:)`).
    ///
    /// Callable from any isolation: `body` runs on the caller's executor.
    nonisolated(nonsending) public func perform<Result>(
        _ proposal: DropProposal, _ body: nonisolated(nonsending) (PerformedDrop) async throws -> Result
    ) async throws -> Result? {
        guard let drop = try await perform(proposal) else { return nil }
        let result: Result
        do {
            result = try await body(drop)
        } catch {
            try? await drop.finish(success: false, message: ErrorMessage.text(for: error))
            throw error
        }
        try await drop.finish()
        return result
    }
}

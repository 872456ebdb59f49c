extension GalleryFile {
    /// Moves the entry at `from` so that it ends up at index `to`; both must be valid indices.
    public func move(from: Int, to: Int) throws {
        try update { document in
            let count = document.images.count
            for index in [from, to] where !(0..<count).contains(index) {
                throw GalleryError.indexOutOfRange(index: index, count: count)
            }
            document.images.insert(document.images.remove(at: from), at: to)
        }
    }

    /// Moves the entries with `ids` (in the order given; unknown ids are ignored) so they stand together
    /// at `index`, a position in the list as it is before the move (clamped to `0...count`), like a drop
    /// between two items of a collection view. Returns the final index of the first moved entry
    /// (the clamped `index` if nothing moved).
    @discardableResult
    public func moveImages(ids: [String], to index: Int) throws -> Int {
        try update { document in
            var seen = Set<String>()
            let positions = ids.compactMap { id in
                seen.insert(id).inserted ? document.images.firstIndex { $0.id == id } : nil
            }
            let target = document.insertionIndex(index)
            let moving = positions.map { document.images[$0] }
            for position in positions.sorted(by: >) { document.images.remove(at: position) }
            let insertion = target - positions.count { $0 < target }
            document.images.insert(contentsOf: moving, at: insertion)
            return insertion
        }
    }
}

extension Int {
    /// `self + other`, or `Int.max` (`Int.min`) where the sum would overflow: for adding up
    /// numbers another process declared (representation sizes, flow-control credit), where a
    /// sum that traps would end this process.
    package func addingSaturating(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        guard overflow else { return sum }
        return other > 0 ? .max : .min
    }
}

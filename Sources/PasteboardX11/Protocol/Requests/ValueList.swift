/// The value list of CreateWindow, ConfigureWindow and CreateGC (protocol spec, "Encoding":
/// BITMASK and LISTofVALUE): a mask of the fields present, then one 32-bit value each, in the
/// order of their bits. Adding in bit order is the caller's part; a BOOL is 0 or 1.
struct ValueList<Mask: FixedWidthInteger> {
    private(set) var mask: Mask = 0
    private(set) var values: [UInt32] = []

    /// Adds `value` under `bit` when there is one.
    mutating func add(_ bit: Mask, _ value: UInt32?) {
        guard let value else { return }
        mask |= bit
        values.append(value)
    }

    /// Adds a BOOL under `bit` when there is one.
    mutating func add(_ bit: Mask, _ flag: Bool?) { add(bit, flag.map { $0 ? 1 : 0 }) }
}

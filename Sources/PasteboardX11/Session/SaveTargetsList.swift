
/// The targets an application asks the clipboard manager to save: the property it names in its
/// SAVE_TARGETS request (freedesktop ClipboardManager specification). Pure decoding of the
/// property as GetProperty returned it, testable without a display.
enum SaveTargetsList: Equatable {
    /// The property does not exist: save every target the owner offers (its TARGETS).
    case all
    /// The listed targets, in the application's order (None atoms dropped).
    case listed([Atom])
    /// The property is there but is no list of atoms (wrong type or format, or cut short).
    case malformed(String)

    /// The most targets read from the list: an application offers a few dozen at most.
    static let maximumTargets = 1024

    /// Decodes the property read with GetProperty (`type` none when it does not exist).
    static func decode(type: Atom, format: UInt8, bytesAfter: UInt32, data: [UInt8]) -> SaveTargetsList {
        guard type != .none else { return .all }
        guard type == .atom, format == 32 else {
            return .malformed("its SAVE_TARGETS property has type \(type.rawValue) and format \(format), not ATOM of 32 bits")
        }
        guard bytesAfter == 0 else { return .malformed("its SAVE_TARGETS property lists more than \(maximumTargets) targets") }
        guard data.count % 4 == 0, data.count / 4 <= maximumTargets else {
            return .malformed("its SAVE_TARGETS property holds \(data.count) bytes: not a list of at most \(maximumTargets) atoms")
        }
        var atoms: [Atom] = []
        var index = 0
        while index + 4 <= data.count {
            var value: UInt32 = 0
            for byte in 0..<4 { value |= UInt32(data[index + byte]) << UInt32(8 * byte) }
            if value != 0 { atoms.append(Atom(value)) }
            index += 4
        }
        return .listed(atoms)
    }
}

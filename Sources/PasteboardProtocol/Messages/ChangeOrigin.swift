public import PasteboardJSON

/// Where and when a change of a pasteboard was made: the machine whose daemon made it and the
/// logical time it was made at. Linked daemons (see pasteboard-protocol(7), LINKS) order
/// concurrent changes by it, so that two copies made at the same moment on two machines settle
/// on the same winner on every machine: the later `clock` wins, and of two equal clocks the
/// larger `machine` (compared as text).
public struct ChangeOrigin: Sendable, Hashable, Comparable, JSONObjectCoding, CustomStringConvertible {
    /// The machine's id: its daemon's 32 lowercase hexadecimal digits.
    public var machine: String
    /// The machine's name for humans (its host name unless configured), when known.
    public var name: String?
    /// The logical time: a Lamport clock whose local ticks never fall behind the wall clock's
    /// milliseconds (so a daemon that restarted, its clock lost, never goes back in time).
    public var clock: Int

    public init(machine: String, name: String? = nil, clock: Int) {
        self.machine = machine
        self.name = name
        self.clock = clock
    }

    /// The range `clock` takes: 0 to 2⁶², far beyond any wall clock's milliseconds, so that
    /// counting on from the largest never overflows.
    public static let clocks = 0...(1 << 62)

    /// Why this origin cannot be used (a machine id that is not 32 hexadecimal digits, a clock
    /// outside ``clocks``, a name longer than 255 bytes), or nil.
    public var problem: String? {
        if !MachineID.isValid(machine) { return "origin machine '\(machine.prefix(64))' is not 32 lowercase hexadecimal digits" }
        if !Self.clocks.contains(clock) { return "origin clock \(clock) is outside 0 to 2^62" }
        if let name, name.utf8.count > 255 || name.isEmpty { return "origin name must be 1 to 255 bytes" }
        return nil
    }

    public static func < (lhs: ChangeOrigin, rhs: ChangeOrigin) -> Bool {
        (lhs.clock, lhs.machine) < (rhs.clock, rhs.machine)
    }

    public static func == (lhs: ChangeOrigin, rhs: ChangeOrigin) -> Bool {
        lhs.clock == rhs.clock && lhs.machine == rhs.machine
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(clock)
        hasher.combine(machine)
    }

    /// The machine's name, else the first 8 digits of its id.
    public var machineLabel: String { name ?? String(machine.prefix(8)) }

    public var description: String { "\(clock)@\(machineLabel)" }

    public static var decodingStart: ChangeOrigin { ChangeOrigin(machine: "", clock: 0) }

    public mutating func members<Members: JSONMembers>(_ json: inout Members) throws(Members.Failure) {
        try json.member("machine", &machine)
        try json.member("name", &name)
        try json.member("clock", &clock)
    }
}

/// A daemon's machine id: 32 lowercase hexadecimal digits, made at random when its state
/// directory is first used (a daemon without one makes a new id at each start).
public enum MachineID {
    /// Whether `text` is a machine id.
    public static func isValid(_ text: String) -> Bool {
        text.utf8.count == 32 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}

import PasteboardProtocol

/// The daemon's logical time, which orders the changes of linked daemons (see `ChangeOrigin`):
/// a Lamport clock, ticking on every change made here and moving up to every later time a link
/// brings, whose ticks also never fall behind the wall clock's milliseconds. A daemon that
/// restarted (its clock lost) so still orders its next copy after what it saw before, and two
/// machines' clocks stay close to real time, which is the order people expect of two copies
/// made seconds apart.
struct LogicalClock: Sendable {
    /// The latest time seen or made.
    private(set) var time = 0

    /// The time of a change made now, at `wallMilliseconds` since 1970: later than every time
    /// seen or made, and not before the wall clock.
    mutating func tick(wallMilliseconds: Int) -> Int {
        time = min(max(time + 1, wallMilliseconds), ChangeOrigin.clocks.upperBound)
        return time
    }

    /// A change made elsewhere at `clock` (already range-checked) was seen.
    mutating func observe(_ clock: Int) {
        time = max(time, min(clock, ChangeOrigin.clocks.upperBound))
    }
}

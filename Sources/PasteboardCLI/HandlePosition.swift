/// `--desktop-at X,Y`: where a drag handle goes on the desktop, read from what the user typed.
public enum HandlePosition {
    /// The largest coordinate taken (X11's are 16-bit signed).
    public static let largestCoordinate = 32767

    /// `text` as `X,Y` (pixels from the screen's top-left corner, each 0 to 32767), or why not.
    public static func parse(_ text: String) -> Result<(x: Int, y: Int), CLIError> {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2, let x = Int(parts[0]), let y = Int(parts[1]) else {
            return .failure(.usage("--desktop-at takes X,Y (pixels from the screen's top-left corner), not '\(text)'"))
        }
        guard (0...largestCoordinate).contains(x), (0...largestCoordinate).contains(y) else {
            return .failure(.usage("--desktop-at must be 0 to \(largestCoordinate) in each of X and Y, not '\(text)'"))
        }
        return .success((x, y))
    }
}

import PasteboardSystem

extension Double {
    /// A number of seconds for messages: "10 seconds", "0.5 seconds", "1 second".
    var secondsPhrase: String {
        let number = SecondsLimit.describe(self)
        return self == 1 ? "1 second" : "\(number) seconds"
    }
}

extension Double {
    /// A number of seconds for messages: "10 seconds", "0.5 seconds", "1 second".
    var secondsPhrase: String {
        let number = self == rounded() ? String(Int(self)) : String(self)
        return self == 1 ? "1 second" : "\(number) seconds"
    }
}

extension Duration {
    /// The duration in seconds, as the protocol's `timeout` and `expire` fields carry it.
    var protocolSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}

/// `value` with `places` digits after the point ("1.034"), without Foundation's formatting.
func decimal(_ value: Double, places: Int) -> String {
    var scale = 1.0
    for _ in 0..<places { scale *= 10 }
    let scaled = Int((abs(value) * scale).rounded())
    let whole = scaled / Int(scale)
    let fraction = String(scaled % Int(scale))
    let padded = String(repeating: "0", count: max(0, places - fraction.count)) + fraction
    return (value < 0 ? "-" : "") + "\(whole)" + (places > 0 ? "." + padded : "")
}

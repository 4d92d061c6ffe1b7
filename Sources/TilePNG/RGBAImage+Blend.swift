extension RGBAImage {
    /// A source pixel's byte offset and its integer weight.
    typealias Tap = (offset: Int, weight: Int)

    /// Writes the weighted mean of four taps: alpha = round(Σwa / Σw),
    /// colour = round(Σwca / Σwa) (0 when Σwa = 0), all rounded half up.
    static func blend(_ tap0: Tap, _ tap1: Tap, _ tap2: Tap, _ tap3: Tap,
                      from source: UnsafeBufferPointer<UInt8>,
                      into target: UnsafeMutableBufferPointer<UInt8>, at offset: Int) {
        let total = tap0.weight + tap1.weight + tap2.weight + tap3.weight
        var sums = (alpha: 0, red: 0, green: 0, blue: 0)
        accumulate(tap0, from: source, into: &sums)
        accumulate(tap1, from: source, into: &sums)
        accumulate(tap2, from: source, into: &sums)
        accumulate(tap3, from: source, into: &sums)
        let alphaSum = sums.alpha
        target[offset + 3] = UInt8((alphaSum + total / 2) / total)
        guard alphaSum > 0 else { return } // fully transparent: colour stays 0
        target[offset] = UInt8((sums.red + alphaSum / 2) / alphaSum)
        target[offset + 1] = UInt8((sums.green + alphaSum / 2) / alphaSum)
        target[offset + 2] = UInt8((sums.blue + alphaSum / 2) / alphaSum)
    }

    /// Adds one tap's weighted alpha and alpha-weighted colour to `sums`.
    private static func accumulate(_ tap: Tap, from source: UnsafeBufferPointer<UInt8>,
                                   into sums: inout (alpha: Int, red: Int, green: Int, blue: Int)) {
        let alpha = Int(source[tap.offset + 3]) * tap.weight
        sums.alpha += alpha
        sums.red += Int(source[tap.offset]) * alpha
        sums.green += Int(source[tap.offset + 1]) * alpha
        sums.blue += Int(source[tap.offset + 2]) * alpha
    }
}

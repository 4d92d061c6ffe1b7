/// What a seed did, counted as it went.
struct SeedSummary: Sendable, Equatable {
    /// Tiles asked for (tiles × scales).
    var requested = 0
    /// Tiles obtained (stored or written).
    var tiles = 0
    /// Their bytes.
    var bytes = 0
    /// "No tile here" answers.
    var noTile = 0
    /// "Not available now" answers.
    var unavailable = 0
    /// Failures.
    var errors = 0
    /// Wall-clock seconds.
    var seconds = 0.0

    /// Tiles answered so far, whatever the answer.
    var done: Int { tiles + noTile + unavailable + errors }

    /// Whether every tile got a lasting answer (a tile or "no tile").
    var isComplete: Bool { unavailable == 0 && errors == 0 }

    /// The line printed at the end.
    var line: String {
        let rate = seconds > 0 ? Double(done) / seconds : 0
        return "\(tiles) tiles (\(Self.bytes(bytes))), \(noTile) no-tile, \(unavailable) unavailable, \(errors) errors "
            + "in \(Self.decimal(seconds)) s (\(Self.decimal(rate)) tiles/s)"
    }

    /// `1.5 MB` style.
    static func bytes(_ count: Int) -> String {
        let units = ["B", "kB", "MB", "GB", "TB"]
        var value = Double(count)
        var unit = 0
        while value >= 1000, unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        return unit == 0 ? "\(count) B" : "\(decimal(value)) \(units[unit])"
    }

    /// One decimal place.
    static func decimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}

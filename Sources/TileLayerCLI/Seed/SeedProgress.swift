#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Seed progress on standard error: a bar redrawn in place on a terminal (count, rate, ETA),
/// else a plain line every `interval` seconds (for logs and CI). Used from one task only.
final class SeedProgress {
    private let total: Int
    private let isTerminal: Bool
    private let interval: Double
    private let write: (String) -> Void
    private let clock = ContinuousClock()
    private let start: ContinuousClock.Instant
    private var lastShown: ContinuousClock.Instant?

    /// Redraws of the bar per second at most.
    static let terminalInterval = 0.1
    /// Seconds between plain lines.
    static let plainInterval = 5.0
    /// Characters of the bar.
    static let barWidth = 30

    /// Progress towards `total` tiles; a bar when `isTerminal` (default: standard error is a tty).
    init(total: Int, isTerminal: Bool = isatty(STDERR_FILENO) == 1, interval: Double? = nil,
         write: @escaping (String) -> Void = { printError($0, newline: false) }) {
        self.total = total
        self.isTerminal = isTerminal
        self.interval = interval ?? (isTerminal ? Self.terminalInterval : Self.plainInterval)
        self.write = write
        self.start = clock.now
    }

    /// Seconds since the start.
    var elapsed: Double { Self.seconds(clock.now - start) }

    /// Shows `done` when the interval has passed (always when `force`).
    func update(done: Int, force: Bool = false) {
        let now = clock.now
        if !force, let lastShown, Self.seconds(now - lastShown) < interval { return }
        lastShown = now
        let seconds = max(Self.seconds(now - start), 1e-6)
        let rate = Double(done) / seconds
        let eta = rate > 0 ? Double(total - done) / rate : 0
        let percent = total > 0 ? done * 100 / total : 100
        let counts = "\(done)/\(total) \(percent)% \(SeedSummary.decimal(rate)) tiles/s ETA \(Self.clockTime(eta))"
        if isTerminal {
            let filled = total > 0 ? Self.barWidth * done / total : Self.barWidth
            let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: Self.barWidth - filled)
            write("\r\u{1B}[K[\(bar)] \(counts)")
        } else {
            write("seed: \(counts)\n")
        }
    }

    /// Ends the bar's line (a terminal) before the summary.
    func finish(done: Int) {
        update(done: done, force: true)
        if isTerminal { write("\n") }
    }

    /// `h:mm:ss`.
    static func clockTime(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded())
        let minutes = whole / 60 % 60, rest = whole % 60
        return "\(whole / 3600):\(minutes < 10 ? "0" : "")\(minutes):\(rest < 10 ? "0" : "")\(rest)"
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}

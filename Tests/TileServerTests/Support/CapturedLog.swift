import Logging
import Synchronization

/// A log that keeps every message (with its metadata) so tests can check what was logged,
/// without bootstrapping the logging system.
final class CapturedLog: Sendable {
    private let lines = Mutex<[String]>([])

    /// A logger writing into this log at `level` and above.
    func logger(level: Logger.Level = .info) -> Logger {
        var logger = Logger(label: "test") { _ in Handler(sink: self) }
        logger.logLevel = level
        return logger
    }

    /// Every line: "level message key=value…".
    var all: [String] { lines.withLock { $0 } }

    /// Lines containing `text`.
    func lines(containing text: String) -> [String] { all.filter { $0.contains(text) } }

    fileprivate func append(_ line: String) { lines.withLock { $0.append(line) } }

    private struct Handler: LogHandler {
        let sink: CapturedLog
        var logLevel: Logger.Level = .trace
        var metadata: Logger.Metadata = [:]

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
            let fields = merged.keys.sorted().map { "\($0)=\(merged[$0]!)" }.joined(separator: " ")
            sink.append("\(event.level) \(event.message) \(fields)")
        }
    }
}

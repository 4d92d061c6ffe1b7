/// How log lines are written (`server.log.format`): a closed domain.
public enum LogFormat: String, Sendable, Equatable, CaseIterable {
    /// swift-log's plain text lines.
    case text
    /// One JSON object per line, for log shippers.
    case json
}

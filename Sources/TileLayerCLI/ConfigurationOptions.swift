import ArgumentParser
import CoreMetrics
import Logging
import Prometheus
import TileServer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Loading the configuration and setting up logging, shared by every subcommand.
enum ConfigurationOptions {
    /// The shipped configuration, relative to the package root (where `swift run` runs).
    static let defaultPath = "config/tilelayer.yml"

    /// Loads `path`, or prints the file, key and problem and exits with status 1.
    static func load(_ path: String) throws -> Configuration {
        do {
            return try Configuration.load(file: path)
        } catch {
            printError("tilelayer: bad configuration: \(error)")
            throw ExitCode.failure
        }
    }

    /// Sends logs to standard error at `level`, as text or one JSON object per line;
    /// returns the application logger.
    static func bootstrapLogging(level: String, format: LogFormat = .text) -> Logger {
        let logLevel = Logger.Level(rawValue: level) ?? .info
        LoggingSystem.bootstrap { label in
            switch format {
            case .text:
                var handler = StreamLogHandler.standardError(label: label)
                handler.logLevel = logLevel
                return handler
            case .json:
                var handler = JSONLogHandler(label: label)
                handler.logLevel = logLevel
                return handler
            }
        }
        return Logger(label: "tilelayer")
    }

    /// Sends every swift-metrics metric of the process to a Prometheus registry, which
    /// `/metrics` renders; returns the registry.
    static func bootstrapMetrics() -> PrometheusCollectorRegistry {
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(TileMetrics.makeFactory(registry: registry))
        return registry
    }
}

/// Writes a line (or, without `newline`, just `text`) to standard error.
func printError(_ text: String, newline: Bool = true) {
    let line = Array((newline ? text + "\n" : text).utf8)
    _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
}

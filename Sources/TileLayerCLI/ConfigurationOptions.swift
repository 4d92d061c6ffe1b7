import ArgumentParser
import Logging
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

    /// Sends logs to standard error at `level`; returns the application logger.
    static func bootstrapLogging(level: String) -> Logger {
        let logLevel = Logger.Level(rawValue: level) ?? .info
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = logLevel
            return handler
        }
        return Logger(label: "tilelayer")
    }
}

/// Writes a line to standard error.
func printError(_ text: String) {
    let line = Array((text + "\n").utf8)
    _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
}

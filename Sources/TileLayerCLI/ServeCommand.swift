import ArgumentParser
import Dispatch
import Logging
import TileServer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `tilelayer serve`: serve the configured layers over HTTP until SIGTERM/SIGINT.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve", abstract: "Serve the configured layers over HTTP (the default command).")

    @Option(name: .shortAndLong, help: "Configuration file (YAML).")
    var config = ConfigurationOptions.defaultPath

    @Option(help: "Address to listen on (overrides server.host).")
    var host: String?

    @Option(help: "Port to listen on (overrides server.port).")
    var port: Int?

    func run() throws {
        var configuration = try ConfigurationOptions.load(config)
        if let host { configuration.server.host = host }
        if let port { configuration.server.port = port }
        let logger = ConfigurationOptions.bootstrapLogging(
            level: configuration.server.logLevel, format: configuration.server.logFormat)
        let metrics = ConfigurationOptions.bootstrapMetrics()
        let runner: ServerRunner
        let boundPort: Int
        do {
            // A reload re-reads the same file and keeps the command line's host and port.
            let (path, host, port) = (config, host, port)
            let source: ConfigurationSource = { () throws(ConfigurationError) in
                var reloaded = try Configuration.load(file: path)
                if let host { reloaded.server.host = host }
                if let port { reloaded.server.port = port }
                return reloaded
            }
            runner = try ServerRunner(configuration: configuration, logger: logger, metrics: metrics,
                                      configurationSource: source)
            boundPort = try runner.start()
        } catch {
            printError("tilelayer: \(error)")
            throw ExitCode.failure
        }
        runner.installSignalHandlers { code in
            #if canImport(Glibc)
            Glibc.exit(code)
            #else
            Darwin.exit(code)
            #endif
        }
        let shownHost = ["0.0.0.0", "::", ""].contains(configuration.server.host) ? "localhost" : configuration.server.host
        logger.notice("tilelayer serving \(configuration.layers.count) layers at http://\(shownHost):\(boundPort)/",
                      metadata: ["config": "\(config)"])
        // The main thread only waits: the signal handlers run on their own queue and end the
        // process with `exit`. (Not `dispatchMain()`: valgrind cannot run libdispatch's parked
        // main thread, and scripts/bench-instructions.sh counts instructions under callgrind.)
        while true { pause() }
    }
}

import Prometheus
import TileHTTP

extension PageEndpoint {
    /// Prometheus text exposition format 0.0.4.
    static let metricsContentType = "text/plain; version=0.0.4; charset=utf-8"

    /// `/metrics`: every series of the registry, the cache's and the descriptors' totals brought up to date first,
    /// then the HTTP server's request series (summed over its event loops).
    func metricsPage() -> HTTPResponse {
        cacheGauges.update(from: pipeline.cache.statistics, decodedTiles: pipeline.decodedTiles.statistics)
        descriptorGauges.update()
        var body: [UInt8] = []
        metricsRegistry.emit(into: &body)
        httpMetrics.emit(into: &body)
        return HTTPResponse(
            status: .ok,
            headers: [.contentType: Self.metricsContentType, .cacheControl: "no-store"],
            body: Self.addingHelp(to: body))
    }

    /// The exposition with a `# HELP` line before each `# TYPE` line of a metric tilelayer
    /// knows (swift-metrics carries no help text, so the registry writes none).
    static func addingHelp(to exposition: [UInt8]) -> [UInt8] {
        guard !exposition.isEmpty else { return exposition }
        let typePrefix = Array("# TYPE ".utf8)
        let helpPrefix = Array("# HELP ".utf8)
        var result: [UInt8] = []
        result.reserveCapacity(exposition.count + 4096)
        var afterHelp = false
        for line in exposition.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            defer { afterHelp = line.starts(with: helpPrefix) }
            if !afterHelp, line.starts(with: typePrefix) {
                let name = line.dropFirst(typePrefix.count).prefix { $0 != UInt8(ascii: " ") }
                if let help = TileMetrics.help[String(decoding: name, as: UTF8.self)] {
                    result.append(contentsOf: "# HELP ".utf8)
                    result.append(contentsOf: name)
                    result.append(UInt8(ascii: " "))
                    result.append(contentsOf: help.utf8)
                    result.append(UInt8(ascii: "\n"))
                }
            }
            result.append(contentsOf: line)
            result.append(UInt8(ascii: "\n"))
        }
        result.removeLast()  // the split's last piece had no newline of its own
        return result
    }
}

import Foundation
import Logging
import TestHTTPClient
import Testing
import TileHTTP
@testable import TileLayerCLI
@testable import TileServer
import TestThreads

/// `server.log.format` and the JSON log handler, down to the access log of a live server.
@Suite(.ownThreads, .timeLimit(.minutes(1))) struct MetricsLogFormatTests {
    let folder = TemporaryFolder()

    @Test func formatIsReadFromTheConfiguration() throws {
        #expect(try Fixtures.configuration("server: {log: {format: json}}", in: folder).server.logFormat == .json)
        #expect(try Fixtures.configuration("server: {log: {format: text}}", in: folder).server.logFormat == .text)
        #expect(try Fixtures.configuration("server: {port: 1}", in: folder).server.logFormat == .text)
    }

    @Test func unknownFormatNamesTheKey() {
        #expect {
            try Fixtures.configuration("server: {log: {format: xml}}", in: folder)
        } throws: { error in
            guard let problem = error as? ConfigurationError else { return false }
            return problem.key == "server.log.format" && problem.message.contains("unknown format \"xml\"")
                && problem.message.contains("text, json")
        }
    }

    private func object(_ line: String) throws -> [String: Any] {
        #expect(line.hasSuffix("}\n"))
        #expect(line.dropLast().contains("\n") == false)
        return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    @Test func linesAreOneJSONObjectEach() throws {
        let line = JSONLogHandler.line(
            time: "2025-01-02T03:04:05.678Z", level: .warning, label: "tilelayer", message: "say \"hi\"\n\tthen\u{1}",
            metadata: ["peer": "127.0.0.1:5", "level": "shadowed", "list": [.string("a"), .stringConvertible(3)],
                       "map": ["k": "v"]])
        let json = try object(line)
        #expect(json["time"] as? String == "2025-01-02T03:04:05.678Z")
        #expect(json["level"] as? String == "warning")
        #expect(json["logger"] as? String == "tilelayer")
        #expect(json["message"] as? String == "say \"hi\"\n\tthen\u{1}")
        #expect(json["peer"] as? String == "127.0.0.1:5")
        #expect(json["meta.level"] as? String == "shadowed")
        #expect(json["list"] as? [String] == ["a", "3"])
        #expect(json["map"] as? [String: String] == ["k": "v"])
    }

    @Test(arguments: [
        (0, 5, "1970-01-01T00:00:00.005Z"),
        (1_700_000_000, 0, "2023-11-14T22:13:20.000Z"),
        (951_782_400, 999, "2000-02-29T00:00:00.999Z"),
    ])
    func timestampsAreRFC3339UTC(seconds: Int, milliseconds: Int, expected: String) async {
        #expect(JSONLogHandler.timestamp(seconds: seconds, milliseconds: milliseconds) == expected)
    }

    @Test func accessLogLinesNoteTheCache() async throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]) }
        var configuration = HTTPServerConfiguration(host: "127.0.0.1", port: 0, accessLog: true)
        configuration.accessLogSettings.format = .json
        configuration.accessLogSettings.descriptor = fds[1]
        let server = HTTPServer(configuration: configuration, responder: try Fixtures.service(folder: folder),
                                logger: Fixtures.logger)
        let port = try server.start()
        let client = try RawHTTPClient(port: port)
        for _ in 0 ..< 2 { #expect(client.request("/1/0/0.png")?.status == 200) }
        #expect(client.request("/healthz")?.status == 200)
        await withCheckedContinuation { continuation in server.shutdown(gracePeriod: 1) { continuation.resume() } }
        close(fds[1])
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fds[0], $0.baseAddress, $0.count) }
            if n <= 0 { break }
            bytes += chunk[..<n]
        }
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n").map { String($0) + "\n" }
        let requests = try lines.map(object).filter { $0["message"] as? String == "request" }
        #expect(requests.count == 3)
        #expect(requests.map { $0["path"] as? String } == ["/1/0/0.png", "/1/0/0.png", "/healthz"])
        #expect(requests.map { $0["cache"] as? String } == ["miss", "hit", nil])
        #expect(requests.allSatisfy { $0["status"] as? String == "200" && $0["peer"] != nil && $0["micros"] != nil
            && $0["bytes"] != nil && $0["method"] as? String == "GET" && $0["time"] != nil })
    }
}

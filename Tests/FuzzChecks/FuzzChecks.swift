// What each fuzz target checks, as functions of the input bytes: the libFuzzer harnesses in
// Fuzz/Targets call them (and trap on a failure), and FuzzCorpusTests replays Fuzz/corpus
// through them in every `swift test`, so a seed that once broke something stays a test.

import TileGeometry
import TileHTTP
import TilePNG
import TileProviders
import TileServer

/// The fuzz targets' checks; each returns nil when the input was handled, else what went wrong.
public enum FuzzChecks {
    /// The targets, named as their folders in Fuzz/Targets and Fuzz/corpus.
    public static let targets: [String: @Sendable ([UInt8]) -> String?] = [
        "http-parser": httpParser, "route": route, "png": png, "config": config,
    ]

    // MARK: http-parser

    /// Small limits so the fuzzer reaches the 414/431/413 edges with short inputs.
    static let parserLimits = HTTPParserLimits(maxRequestLineBytes: 96, maxHeaderBytes: 256, maxBodyBytes: 64)

    private struct Outcome: Equatable {
        var requests: [HTTPRequest] = []
        var error: HTTPParseError?
    }

    private static func parse(_ input: [UInt8], pieces: [Range<Int>]) -> Outcome {
        var parser = HTTPRequestParser(limits: parserLimits)
        var outcome = Outcome()
        for piece in pieces {
            parser.append(input[piece])
            do {
                while let request = try parser.next() { outcome.requests.append(request) }
                _ = parser.hasPartialRequest
            } catch {
                outcome.error = error
                return outcome
            }
        }
        return outcome
    }

    /// Cuts `count` bytes into pieces of 1…16 bytes chosen by a xorshift generator seeded with `seed`.
    private static func randomPieces(_ count: Int, seed: UInt32) -> [Range<Int>] {
        var state = seed | 1
        var pieces: [Range<Int>] = []
        var start = 0
        while start < count {
            state ^= state << 13
            state ^= state >> 17
            state ^= state << 5
            let end = min(count, start + 1 + Int(state % 16))
            pieces.append(start ..< end)
            start = end
        }
        return pieces
    }

    /// HTTPRequestParser fed the bytes after the first four (a seed for the random split) whole,
    /// byte by byte and in random pieces must give the same requests and the same error.
    public static func httpParser(_ data: [UInt8]) -> String? {
        guard data.count >= 4 else { return nil }
        let seed = UInt32(data[0]) | UInt32(data[1]) << 8 | UInt32(data[2]) << 16 | UInt32(data[3]) << 24
        let input = Array(data[4...])
        let whole = parse(input, pieces: input.isEmpty ? [] : [0 ..< input.count])
        let split = parse(input, pieces: randomPieces(input.count, seed: seed))
        let drip = parse(input, pieces: (0 ..< input.count).map { $0 ..< $0 + 1 })
        if whole != split || whole != drip {
            return "parser results differ by split: whole \(whole), split \(split), drip \(drip)"
        }
        for request in whole.requests {
            _ = request.keepAlive
            _ = request.queryItems
        }
        if let error = whole.error { _ = (error.status, error.description) }
        return nil
    }

    // MARK: route

    private static let floor = try! URLTemplateVariable(name: "floor", allowedValues: ["1", "2"], defaultValue: "1")
    private static let anyValue = try! URLTemplateVariable(name: "v", defaultValue: "a")

    /// Request-target parsing, routing and URL-template parsing on arbitrary text: no path
    /// segment that could leave a folder, no crash.
    public static func route(_ data: [UInt8]) -> String? {
        let text = String(decoding: data, as: UTF8.self)
        if let target = try? HTTPRequestTarget(parsing: text) {
            for segment in target.pathSegments where segment.isEmpty || segment == "." || segment == ".."
                || segment.contains("/") || segment.utf8.contains(0)
            {
                return "unsafe segment \(segment.debugDescription) from \(text.debugDescription)"
            }
            let request = HTTPRequest(method: .get, target: text, pathSegments: target.pathSegments, query: target.query)
            _ = request.queryItems
            if case .route(.tile(let tile)) = Router.match(target.pathSegments), tile.z < 24, tile.z >= 0,
               tile.x >= 0, tile.y >= 0, tile.x < 1 << tile.z, tile.y < 1 << tile.z
            {
                _ = TileCoordinate(z: tile.z, x: tile.x, y: tile.y).quadkey
            }
        }
        _ = PercentDecoding.decodeQueryComponent(text)
        if let template = try? URLTemplate(text, subdomains: ["a", "b"], variables: [floor, anyValue]) {
            for (z, x, y) in [(0, 0, 0), (3, 5, 2), (18, 130_000, 87_000)] {
                _ = template.url(for: TileRequest(x: x, y: y, zoom: z, variables: ["floor": "2"]))
            }
        }
        return nil
    }

    // MARK: png

    /// Below the 8192 px default so that each run stays fast; the code path is the same.
    static let pngMaxDimension = 1024

    /// PNGDecoder on arbitrary bytes ends in an image of the size it says, or a PNGError.
    public static func png(_ data: [UInt8]) -> String? {
        _ = try? PNGDecoder.size(of: data)
        if let image = try? PNGDecoder.decode(data, maxDimension: pngMaxDimension),
           image.pixels.count != image.width * image.height * 4
        {
            return "pixel buffer of the wrong size: \(image.pixels.count) bytes for \(image.width)x\(image.height)"
        }
        return nil
    }

    // MARK: config

    /// Configuration.parse on arbitrary text ends in a configuration or a ConfigurationError
    /// naming the file.
    public static func config(_ data: [UInt8]) -> String? {
        let text = String(decoding: data, as: UTF8.self)
        do {
            _ = try Configuration.parse(yaml: text, file: "/fuzz/tilelayer.yml")
        } catch {
            guard error.file == "/fuzz/tilelayer.yml" else { return "an error that does not name the file: \(error)" }
            _ = error.description
        }
        return nil
    }
}

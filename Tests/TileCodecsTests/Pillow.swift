import Dispatch
import Foundation
import TileCodecs

/// Runs Python snippets with Pillow, the independent encoder/decoder the codecs are checked against.
/// A missing python3 or Pillow is a failure (thrown), never a skip.
enum Pillow {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs `python3 -c script args…` on a thread of its own (waiting for a process must not
    /// hold a Swift-concurrency thread, nor one of Dispatch's shared pool, which on Linux runs
    /// Swift concurrency's jobs too: the other suites' servers render there); throws with its
    /// stderr when it exits non-zero.
    @discardableResult
    static func run(_ script: String, _ arguments: [String]) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try runBlocking(script, arguments) }) }.start()
        }
    }

    private static func runBlocking(_ script: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "from PIL import Image\n" + script] + arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "python3 with Pillow failed (install it: pip install pillow): "
                          + String(decoding: err, as: UTF8.self))
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A fresh temporary folder for one test.
    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("tilecodecs-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Pillow's decode of an image file as RGBA8 bytes, with its size.
    static func decodeRGBA(_ file: URL, scratch: URL) async throws -> RGBAImage {
        let raw = scratch.appendingPathComponent("pillow-\(UUID().uuidString).rgba")
        let size = try await run("""
            import sys
            image = Image.open(sys.argv[1]); image.load()
            open(sys.argv[2], "wb").write(image.convert("RGBA").tobytes())
            print(image.size[0], image.size[1], image.format)
            """, [file.path, raw.path])
        let fields = size.split(separator: " ").map(String.init)
        let pixels = [UInt8](try Data(contentsOf: raw))
        return try RGBAImage(width: Int(fields[0]) ?? 0, height: Int(fields[1]) ?? 0, pixels: pixels)
    }
}

/// Test images built in code and pixel-error measures.
enum CodecFixture {
    /// A smooth 2-D colour gradient with a soft disc (photo-like: what JPEG and lossy WebP are for).
    static func gradient(width: Int = 256, height: Int = 256, alpha: (Int, Int) -> UInt8 = { _, _ in 255 }) -> RGBAImage {
        var image = RGBAImage(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let dx = Double(x - width / 2), dy = Double(y - height / 2)
                let disc = max(0, 1 - (dx * dx + dy * dy).squareRoot() / Double(width / 3))
                image.setPixel(x: x, y: y, to: RGBAColor(
                    red: UInt8(x * 255 / max(width - 1, 1)),
                    green: UInt8(y * 255 / max(height - 1, 1)),
                    blue: UInt8(min(255, 60 + disc * 190)),
                    alpha: alpha(x, y)))
            }
        }
        return image
    }

    /// Mean and maximum absolute difference per channel sample (RGB only unless `alpha`).
    static func error(_ a: RGBAImage, _ b: RGBAImage, alpha: Bool = false) -> (mean: Double, max: Int) {
        precondition(a.width == b.width && a.height == b.height)
        var total = 0, largest = 0, count = 0
        for index in 0..<a.pixels.count where alpha || index % 4 != 3 {
            let difference = abs(Int(a.pixels[index]) - Int(b.pixels[index]))
            total += difference
            largest = max(largest, difference)
            count += 1
        }
        return (Double(total) / Double(count), largest)
    }

    /// The raw RGBA bytes of `image` in a file, for Pillow's `Image.frombytes`.
    static func writeRaw(_ image: RGBAImage, to file: URL) throws {
        try Data(image.pixels).write(to: file)
    }
}

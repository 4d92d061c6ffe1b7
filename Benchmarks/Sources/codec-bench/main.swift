// codec-bench: JPEG and WebP decode/encode of 256 px tiles with TileCodecs, in-process.
//
// Decodes every file of DIR/<format>/ (written by scripts/bench/pillow_codecs.py --prepare) from
// bytes already in memory, then encodes every decoded image again with TileCodecs' defaults
// (JPEG quality 85 4:2:0; WebP quality 80, WebPEncoder.defaultMethod unless --method).
// scripts/bench/pillow_codecs.py does the same with Pillow; scripts/bench-imaging.sh runs both.
//
//   codec-bench DIR --format jpeg|webp [--rounds 1] [--warmup 8] [--method N]
//   codec-bench --default-webp-method     (prints WebPEncoder.defaultMethod)
//
// Output: `RESULT impl=ours op=decode|encode format=... tiles=N seconds=S tiles_per_s=R bytes=B`
// per round; everything else on standard error.
import Foundation
import TileCodecs

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("codec-bench: \(message)\n".utf8))
    exit(2)
}

var arguments = Array(CommandLine.arguments.dropFirst())
var directory: String?
var format = RasterFormat.jpeg
var rounds = 1, warmup = 8, method = WebPEncoder.defaultMethod
while !arguments.isEmpty {
    let argument = arguments.removeFirst()
    func value() -> String {
        guard !arguments.isEmpty else { fail("\(argument) needs a value") }
        return arguments.removeFirst()
    }
    func number() -> Int {
        guard let number = Int(value()) else { fail("\(argument) takes a whole number") }
        return number
    }
    switch argument {
    case "--format":
        guard let chosen = RasterFormat(rawValue: value()), chosen != .png else { fail("--format is jpeg or webp") }
        format = chosen
    case "--rounds": rounds = number()
    case "--warmup": warmup = number()
    case "--method": method = number()
    case "--default-webp-method":
        print(WebPEncoder.defaultMethod)
        exit(0)
    default:
        guard directory == nil, !argument.hasPrefix("-") else { fail("unexpected argument \(argument)") }
        directory = argument
    }
}
guard let directory else { fail("usage: codec-bench DIR --format jpeg|webp [--rounds N] [--warmup N] [--method N]") }
let folder = URL(fileURLWithPath: directory).appendingPathComponent(format.rawValue)
let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
let blobs = names.compactMap { try? [UInt8](Data(contentsOf: folder.appendingPathComponent($0))) }
guard !blobs.isEmpty else { fail("no files in \(folder.path)") }
let encoder: ImageEncoder = format == .jpeg ? .jpeg(JPEGEncoder()) : .webp(WebPEncoder(method: method))
let label = format == .jpeg ? "ours" : "ours-m\(method)"

func decodeAll(_ blobs: ArraySlice<[UInt8]>) -> [RGBAImage] {
    do {
        return try blobs.map { try ImageDecoder.decode($0) }
    } catch {
        fail("decode: \(error)")
    }
}

func encodeAll(_ images: [RGBAImage]) -> Int {
    do {
        return try images.reduce(0) { $0 + (try encoder.encode($1)).count }
    } catch {
        fail("encode: \(error)")
    }
}

FileHandle.standardError.write(Data("codec-bench: \(blobs.count) \(format) tiles\n".utf8))
_ = encodeAll(decodeAll(blobs.prefix(warmup)))
let clock = ContinuousClock()
for round in 1...max(rounds, 1) {
    var images: [RGBAImage] = []
    let decodeTime = clock.measure { images = decodeAll(blobs[...]) }
    var bytes = 0
    let encodeTime = clock.measure { bytes = encodeAll(images) }
    for (op, time, size) in [("decode", decodeTime, blobs.reduce(0) { $0 + $1.count }), ("encode", encodeTime, bytes)] {
        let seconds = Double(time.components.seconds) + Double(time.components.attoseconds) / 1e18
        print("RESULT impl=\(label) op=\(op) format=\(format) round=\(round) tiles=\(blobs.count) "
              + "seconds=\(String(format: "%.3f", seconds)) tiles_per_s=\(String(format: "%.2f", Double(blobs.count) / seconds)) bytes=\(size)")
    }
}

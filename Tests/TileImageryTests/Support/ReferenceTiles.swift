import Foundation
import TilePNG

/// Reference tiles from rio-tiler and the gdalwarp command (`scripts/imagery-reference.py`), and
/// how far one of ours lies from one of them.
struct ReferenceTiles {
    /// The tile spec "z/x/y@scale".
    static func spec(_ z: Int, _ x: Int, _ y: Int, scale: Int) -> String { "\(z)/\(x)/\(y)@\(scale)" }

    let folder: URL

    /// Computes the references of `specs` for `file`.
    static func make(file: String, resampling: String, options: String = "{}", specs: [String]) async throws -> ReferenceTiles {
        let folder = try ExternalTool.temporaryFolder("tilelayer-reference")
        try await ExternalTool.run(["python3", "scripts/imagery-reference.py", file, folder.path, resampling, options] + specs,
                                   package: "rio-tiler (pip) and gdal-bin (Debian)")
        return ReferenceTiles(folder: folder)
    }

    /// `implementation`'s ("rio" or "gdalwarp") RGBA bytes of `spec`; empty when it said the tile is outside.
    func pixels(_ implementation: String, _ spec: String) throws -> [UInt8] {
        let name = implementation + "-" + spec.replacingOccurrences(of: "/", with: "-") + ".rgba"
        return [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
    }
}

/// How two RGBA tiles of one size differ.
struct TileDifference: CustomStringConvertible {
    /// Mean absolute difference of red, green and blue where both have data (0…255).
    let meanColour: Double
    /// The 99th percentile of those differences.
    let p99Colour: Int
    /// The share of pixels that have data in one and not in the other.
    let alphaMismatch: Double

    init(_ ours: RGBAImage, _ reference: [UInt8]) {
        var differences: [Int] = []
        var mismatched = 0
        let pixels = ours.pixels
        for pixel in 0 ..< ours.width * ours.height {
            let base = pixel * 4
            let mine = pixels[base + 3] > 0, theirs = reference[base + 3] > 0
            if mine != theirs { mismatched += 1; continue }
            guard mine else { continue }
            for channel in 0 ..< 3 { differences.append(abs(Int(pixels[base + channel]) - Int(reference[base + channel]))) }
        }
        differences.sort()
        meanColour = differences.isEmpty ? 0 : Double(differences.reduce(0, +)) / Double(differences.count)
        p99Colour = differences.isEmpty ? 0 : differences[differences.count * 99 / 100]
        alphaMismatch = Double(mismatched) / Double(ours.width * ours.height)
    }

    var description: String {
        "mean \(String(format: "%.2f", meanColour)), p99 \(p99Colour), alpha mismatch \(String(format: "%.3f", alphaMismatch * 100)) %"
    }
}

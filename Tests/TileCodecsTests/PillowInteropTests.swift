import Foundation
import Testing
import TileCodecs
import TestThreads

/// Pillow (an independent libjpeg/libwebp user) writes files we decode, and decodes files we write.
/// Serialized: one python process at a time, so the suite does not crowd out timing-sensitive suites.
@Suite("Interoperability with Pillow", .ownThreads, .serialized, .timeLimit(.minutes(2)))
struct PillowInteropTests {
    /// Pillow encodes our gradient in several flavours; we decode each and compare with both the
    /// source pixels and Pillow's own decode of the same file.
    @Test(arguments: [
        ("photo.jpg", "image.convert('RGB').save(out, 'JPEG', quality=90)", 2.0),
        ("progressive.jpg", "image.convert('RGB').save(out, 'JPEG', quality=90, progressive=True)", 2.0),
        ("gray.jpg", "image.convert('L').save(out, 'JPEG', quality=90)", -1.0),
        ("lossy.webp", "image.save(out, 'WEBP', quality=90)", 2.5),
        ("lossless.webp", "image.save(out, 'WEBP', lossless=True)", 0.0),
    ])
    func decodesPillowFiles(name: String, save: String, sourceBound: Double) async throws {
        let folder = try Pillow.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = CodecFixture.gradient()
        let raw = folder.appendingPathComponent("source.rgba")
        let file = folder.appendingPathComponent(name)
        try CodecFixture.writeRaw(source, to: raw)
        try await Pillow.run("""
            import sys
            image = Image.frombytes('RGBA', (256, 256), open(sys.argv[1], 'rb').read())
            out = sys.argv[2]
            \(save)
            """, [raw.path, file.path])
        let bytes = [UInt8](try Data(contentsOf: file))
        let ours = try ImageDecoder.decode(bytes)
        let theirs = try await Pillow.decodeRGBA(file, scratch: folder)
        #expect(ours.width == 256 && ours.height == 256)
        let versusPillow = CodecFixture.error(ours, theirs, alpha: true)
        #expect(versusPillow.max <= 2, "\(name): differs from Pillow's decode by up to \(versusPillow.max)")
        if sourceBound >= 0 {
            let versusSource = CodecFixture.error(ours, source)
            #expect(versusSource.mean <= sourceBound, "\(name): mean error \(versusSource.mean) vs the source")
        }
    }

    /// We encode; Pillow opens the file, reports its format and size, and its pixels stay close.
    @Test(arguments: [
        (ImageEncoder.jpeg(JPEGEncoder()), "JPEG", 1.5),
        (.jpeg(JPEGEncoder(quality: 60)), "JPEG", 3.0),
        (.webp(WebPEncoder()), "WEBP", 2.5),
        (.webp(WebPEncoder(lossless: true)), "WEBP", 0.0),
        (.png(PNGEncoder()), "PNG", 0.0),
    ])
    func pillowDecodesOurFiles(encoder: ImageEncoder, pillowFormat: String, bound: Double) async throws {
        let folder = try Pillow.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = CodecFixture.gradient(width: 256, height: 192)
        let file = folder.appendingPathComponent("ours.\(encoder.format)")
        try Data(try encoder.encode(source)).write(to: file)
        let format = try await Pillow.run("import sys\nprint(Image.open(sys.argv[1]).format)", [file.path])
        #expect(format.trimmingCharacters(in: .whitespacesAndNewlines) == pillowFormat)
        let theirs = try await Pillow.decodeRGBA(file, scratch: folder)
        #expect(theirs.width == 256 && theirs.height == 192)
        let error = CodecFixture.error(source, theirs, alpha: true)
        #expect(error.mean <= bound, "\(encoder.format): mean error \(error.mean)")
        if bound == 0 { #expect(Bool(theirs.pixels == source.pixels)) }
    }
}

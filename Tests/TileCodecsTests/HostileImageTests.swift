import Testing
import TileCodecs

/// Truncated, damaged and oversized input: typed errors naming the problem, never a crash.
@Suite("Hostile JPEG and WebP input")
struct HostileImageTests {
    static let jpeg = try! JPEGEncoder().encode(CodecFixture.gradient(width: 64, height: 64))
    static let webp = try! WebPEncoder().encode(CodecFixture.gradient(width: 64, height: 64))
    static let losslessWebP = try! WebPEncoder(lossless: true).encode(CodecFixture.gradient(width: 16, height: 16))

    @Test(arguments: [RasterFormat.jpeg, .webp])
    func everyTruncationThrowsTruncated(format: RasterFormat) {
        let whole = format == .jpeg ? Self.jpeg : Self.webp
        var seen = 0
        // From 12 bytes on, the signature is whole (RIFF needs 12); shorter is `.unknownFormat`.
        for length in stride(from: 12, to: whole.count - 1, by: 7) {
            let part = Array(whole.prefix(length))
            #expect(throws: ImageCodecError.truncated(format: format), "cut at \(length) of \(whole.count)") {
                try ImageDecoder.decode(part)
            }
            seen += 1
        }
        #expect(seen > 10)
    }

    @Test func damagedJPEGHeaderIsCorrupt() {
        var bytes = Self.jpeg
        for index in 4..<40 { bytes[index] = 0x00 }
        #expect {
            try ImageDecoder.decode(bytes)
        } throws: { error in
            guard case .corrupt(.jpeg, let reason) = error as? ImageCodecError else { return false }
            return !reason.isEmpty
        }
    }

    @Test func damagedWebPBitstreamIsCorrupt() {
        var bytes = Self.webp
        for index in 20..<min(bytes.count - 1, 40) { bytes[index] = 0xFF }
        #expect(throws: ImageCodecError.corrupt(format: .webp, reason: "no valid VP8, VP8L or VP8X header in the RIFF container")) {
            try ImageDecoder.decode(bytes)
        }
    }

    @Test func garbageAfterASignatureNeverCrashes() {
        var generator = SystemRandomNumberGenerator()
        for prefix in [[0xFF, 0xD8, 0xFF], Array("RIFF\u{FF}\u{0}\u{0}\u{0}WEBP".utf8)] as [[UInt8]] {
            for _ in 0..<50 {
                let noise = (0..<Int.random(in: 0...300, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
                #expect(throws: ImageCodecError.self) { try ImageDecoder.decode(prefix + noise) }
            }
        }
    }

    /// TurboJPEG instances are reused: a failed call must not spoil the next good one.
    @Test func aGoodJPEGDecodesAfterEveryKindOfFailure() throws {
        var damaged = Self.jpeg
        for index in 4..<40 { damaged[index] = 0x00 }
        for bad in [damaged, Array(Self.jpeg.prefix(200)), [0xFF, 0xD8, 0xFF, 0xFF, 0x00]] {
            for _ in 0..<3 {
                #expect(throws: ImageCodecError.self) { try ImageDecoder.decode(bad) }
                #expect(try ImageDecoder.decode(Self.jpeg).width == 64)
                #expect(try ImageDecoder.decode(try JPEGEncoder().encode(CodecFixture.gradient(width: 8, height: 8))).width == 8)
            }
        }
    }

    /// JPEG frames store 16-bit sides (ITU T.81 §B.2.2): 65000×65000 is the largest honest claim.
    @Test func hugeJPEGClaimIsRefusedBeforeDecoding() throws {
        var bytes = Self.jpeg
        let sof = try #require(Self.markerOffset(0xC0, in: bytes))
        // SOF0: FF C0, length(2), precision(1), height(2), width(2)
        bytes[sof + 5] = 0xFD; bytes[sof + 6] = 0xE8
        bytes[sof + 7] = 0xFD; bytes[sof + 8] = 0xE8
        #expect(try ImageDecoder.size(of: bytes) == (65000, 65000))
        #expect(throws: ImageCodecError.tooLarge(format: .jpeg, width: 65000, height: 65000, limit: 8192)) {
            try ImageDecoder.decode(bytes)
        }
    }

    /// VP8L stores 14-bit sides: 16384×16384 is the largest claim a lossless WebP can make.
    @Test func hugeWebPClaimIsRefusedBeforeDecoding() throws {
        var bytes = Self.losslessWebP
        #expect(Array(bytes[12..<16]) == Array("VP8L".utf8))
        // Signature 0x2F at 20, then width−1 (14 bits) and height−1 (14 bits), little-endian.
        let packed: UInt32 = 0x3FFF | (0x3FFF << 14) | (UInt32(bytes[24] & 0xF0) << 24)
        for shift in 0..<4 { bytes[21 + shift] = UInt8(truncatingIfNeeded: packed >> (8 * shift)) }
        #expect(try ImageDecoder.size(of: bytes) == (16384, 16384))
        #expect(throws: ImageCodecError.tooLarge(format: .webp, width: 16384, height: 16384, limit: 8192)) {
            try ImageDecoder.decode(bytes)
        }
    }

    @Test func hugePNGClaimIsRefusedThroughTheSameEntryPoint() throws {
        var bytes = try ImageEncoder(format: .png).encode(CodecFixture.gradient(width: 4, height: 4))
        // IHDR width and height at 16 and 20 (big-endian); the CRC is not checked by the size probe.
        for (offset, value) in [(16, 100_000), (20, 100_000)] {
            for index in 0..<4 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (24 - 8 * index)) }
        }
        #expect(throws: ImageCodecError.png(.tooLarge(width: 100_000, height: 100_000, limit: 8192))) {
            try ImageDecoder.decode(bytes)
        }
    }

    @Test func messagesNameTheFormatAndProblem() {
        #expect(ImageCodecError.truncated(format: .webp).description == "WebP data is truncated: the image ends before it is complete")
        #expect(ImageCodecError.tooLarge(format: .jpeg, width: 65000, height: 65000, limit: 8192).description
                == "JPEG is 65000×65000 px, above the limit of 8192 px per side")
    }

    static func markerOffset(_ marker: UInt8, in bytes: [UInt8]) -> Int? {
        (0..<bytes.count - 1).first { bytes[$0] == 0xFF && bytes[$0 + 1] == marker }
    }
}

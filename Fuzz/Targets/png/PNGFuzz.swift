// Fuzz target: PNGDecoder on arbitrary bytes ends in an image or a PNGError, never a crash.

import TilePNG

/// Below the 8192 px default so that each run stays fast; the code path is the same.
private let maxDimension = 1024

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPNG(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = try? PNGDecoder.size(of: bytes)
    if let image = try? PNGDecoder.decode(bytes, maxDimension: maxDimension) {
        if image.pixels.count != image.width * image.height * 4 { fatalError("pixel buffer of the wrong size") }
    }
    return 0
}

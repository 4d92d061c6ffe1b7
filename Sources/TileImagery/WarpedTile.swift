internal import CGDAL

/// A warped tile's samples: per pixel its bands then alpha (0 = no data, 255 = data),
/// interleaved; bytes for 8-bit data, 32-bit floats when values are rescaled afterwards.
struct WarpedTile {
    let size: Int
    let channels: Int
    var bytes: [UInt8] = []
    var floats: [Float] = []

    init(size: Int, channels: Int, floats isFloat: Bool) {
        self.size = size
        self.channels = channels
        if isFloat { floats = [Float](repeating: 0, count: size * size * channels) }
        else { bytes = [UInt8](repeating: 0, count: size * size * channels) }
    }

    var bytesPerSample: Int { floats.isEmpty ? 1 : 4 }

    /// Calls `body` with the sample buffer and its GDAL data type.
    mutating func withBuffer<R>(_ body: (UnsafeMutableRawPointer, GDALDataType) -> R) -> R {
        if floats.isEmpty {
            return bytes.withUnsafeMutableBytes { body($0.baseAddress!, GDT_Byte) }
        }
        return floats.withUnsafeMutableBytes { body($0.baseAddress!, GDT_Float32) }
    }
}

internal import CGDAL
import TileProviders

/// Byte ranges of an object on S3 (or over HTTP) read through GDAL's virtual file systems
/// (`/vsis3/`, `/vsicurl/`): one S3 implementation, signed with AWS Signature Version 4 by GDAL,
/// for PMTiles archives as for rasters. Reads run on `BlockingLanes` (GDAL's reads block), each
/// with a file handle of its own (handles are not thread-safe); GDAL's process-wide curl cache
/// keeps the object's size and recently read 16 KiB chunks. No ETag is known: a replaced object
/// is seen once GDAL's cache drops it (a reload clears it).
public final class ObjectRangeReader: PMTilesRangeSource {
    /// The object.
    public let location: RasterLocation

    /// A reader of `location`; nothing is read until `probe()` or the first range.
    public init(location: RasterLocation) {
        self.location = location
    }

    /// The object's size, asked of the store now (blocking: call it at start-up or on a worker).
    /// Throws naming the object and the store's answer (403, 404, unreachable).
    public func probe() throws(ImageryError) -> UInt64 {
        try withFile(seekingTo: nil) { file in UInt64(VSIFTellL(file)) }
    }

    /// Runs `body` with the object opened and positioned at `offset` (nil: its end).
    private func withFile<R>(seekingTo offset: UInt64?, _ body: (UnsafeMutablePointer<VSILFILE>) -> R) throws(ImageryError) -> R {
        ImageryEnvironment.ensure()
        GDALMessages.reset()
        VSIErrorReset()
        guard let file = VSIFOpenExL(location.gdalName, "rb", 1) else {
            throw .objectRead(location: location.description, reason: StoreAnswer.describe(default: "the store does not have it"))
        }
        defer { VSIFCloseL(file) }
        guard VSIFSeekL(file, vsi_l_offset(offset ?? 0), offset == nil ? SEEK_END : SEEK_SET) == 0 else {
            throw .objectRead(location: location.description, reason: StoreAnswer.describe(default: "cannot seek to \(offset ?? 0)"))
        }
        return body(file)
    }

    public func read(offset: UInt64, length: UInt64, etag: String?, allowShort: Bool) async throws(TileProviderError) -> PMTilesRangeReader.Outcome {
        let result: Result<[UInt8], ImageryError> = await withCheckedContinuation { continuation in
            BlockingLanes.run {
                continuation.resume(returning: Result { () throws(ImageryError) in try self.readNow(offset: offset, length: length) })
            }
        }
        let bytes: [UInt8]
        do { bytes = try result.get() } catch { throw error.providerError }
        guard bytes.count == Int(length) || (allowShort && !bytes.isEmpty) else {
            throw .upstream(url: location.description, reason: "asked for \(length) bytes at \(offset), got \(bytes.count)")
        }
        return .bytes(bytes, etag: nil)
    }

    /// `length` bytes at `offset` (fewer at the end of the object), blocking.
    func readNow(offset: UInt64, length: UInt64) throws(ImageryError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: Int(length))
        let (read, atEnd) = try withFile(seekingTo: offset) { file in
            let read = bytes.withUnsafeMutableBytes { VSIFReadL($0.baseAddress, 1, Int(length), file) }
            return (read, VSIFEofL(file) != 0)
        }
        if read < Int(length) && !atEnd {
            throw .objectRead(location: location.description, reason: StoreAnswer.describe(default: "a read of \(length) bytes at \(offset) failed"))
        }
        bytes.removeLast(Int(length) - read)
        return bytes
    }
}

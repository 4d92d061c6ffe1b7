internal import CZlib

/// gzip compression with zlib's `deflate`, for the directories and metadata `PMTilesWriter` writes.
enum Deflate {
    /// `input` as one gzip member (RFC 1952), zlib level 6.
    static func gzip(_ input: [UInt8]) -> [UInt8] {
        var stream = z_stream()
        // 15 + 16: the largest window, with a gzip wrapper; memLevel 8 is zlib's default.
        guard deflateInit2_(&stream, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY,
                            ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            preconditionFailure("zlib deflateInit2 failed: out of memory")
        }
        defer { deflateEnd(&stream) }
        let bound = Int(deflateBound(&stream, UInt(input.count))) + 32
        var input = input
        return input.withUnsafeMutableBufferPointer { source in
            [UInt8](unsafeUninitializedCapacity: bound) { target, written in
                stream.next_in = source.baseAddress
                stream.avail_in = UInt32(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = UInt32(target.count)
                // deflateBound guarantees one Z_FINISH call completes.
                let status = deflate(&stream, Z_FINISH)
                precondition(status == Z_STREAM_END, "zlib deflate did not finish within deflateBound")
                written = target.count - Int(stream.avail_out)
            }
        }
    }
}

internal import CZlib

/// gzip (or zlib) decompression with zlib's `inflate`, bounded so that a corrupt or hostile
/// archive cannot make it allocate without limit.
enum Inflate {
    /// Largest decompressed directory or metadata accepted.
    static let maxOutputBytes = 64 << 20

    /// The decompressed `input`.
    static func gunzip(_ input: [UInt8]) throws(PMTilesFormatError) -> [UInt8] {
        var stream = z_stream()
        // 15 + 32: the largest window, and detect a gzip or zlib wrapper from the header.
        guard inflateInit2_(&stream, 15 + 32, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw PMTilesFormatError("zlib could not start")
        }
        defer { inflateEnd(&stream) }
        var output = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: max(4096, input.count * 4))
        var input = input
        let status: Int32 = input.withUnsafeMutableBufferPointer { source in
            stream.next_in = source.baseAddress
            stream.avail_in = UInt32(source.count)
            while true {
                let result: Int32 = chunk.withUnsafeMutableBufferPointer { target in
                    stream.next_out = target.baseAddress
                    stream.avail_out = UInt32(target.count)
                    return inflate(&stream, Z_NO_FLUSH)
                }
                output.append(contentsOf: chunk[0 ..< chunk.count - Int(stream.avail_out)])
                if result != Z_OK || output.count > maxOutputBytes { return result }
                if stream.avail_in == 0 && stream.avail_out != 0 { return Z_BUF_ERROR }
            }
        }
        guard status == Z_STREAM_END else {
            if output.count > maxOutputBytes { throw PMTilesFormatError("decompresses to more than 64 MiB") }
            throw PMTilesFormatError("gzip data are corrupt or truncated (zlib \(status))")
        }
        return output
    }
}

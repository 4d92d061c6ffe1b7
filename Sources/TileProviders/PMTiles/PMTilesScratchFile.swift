#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file written by appending and read back by offset (`PMTilesWriter`'s scratch and output files).
final class PMTilesScratchFile {
    /// Bytes at an offset.
    struct Blob {
        var offset: UInt64
        var length: UInt32
    }

    let path: String
    private var descriptor: Int32
    private var size: UInt64 = 0

    /// Creates (truncates) `path`.
    init(path: String) throws(TileProviderError) {
        self.path = path
        descriptor = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .unwritable(path: path, errno: errno) }
    }

    deinit { close() }

    /// Appends `bytes`; where they went.
    func append(_ bytes: [UInt8]) throws(TileProviderError) -> Blob {
        let blob = Blob(offset: size, length: UInt32(bytes.count))
        var done = 0
        while done < bytes.count {
            let written = bytes.withUnsafeBytes { raw in
                pwrite(descriptor, raw.baseAddress! + done, raw.count - done, off_t(size) + off_t(done))
            }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { throw .unwritable(path: path, errno: written < 0 ? errno : EIO) }
            done += written
        }
        size += UInt64(bytes.count)
        return blob
    }

    /// The bytes of `blob`.
    func read(_ blob: Blob) throws(TileProviderError) -> [UInt8] {
        let count = Int(blob.length)
        var failure: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            var done = 0
            while done < count {
                let got = pread(descriptor, buffer.baseAddress! + done, count - done, off_t(blob.offset) + off_t(done))
                if got < 0, errno == EINTR { continue }
                guard got > 0 else { failure = got < 0 ? errno : EIO; break }
                done += got
            }
            initialized = failure == 0 ? count : 0
        }
        guard failure == 0 else { throw .unreadable(path: path, errno: failure) }
        return bytes
    }

    /// `fsync`.
    func sync() throws(TileProviderError) {
        guard fsync(descriptor) == 0 else { throw .unwritable(path: path, errno: errno) }
    }

    /// Closes the descriptor (the file stays).
    func close() {
        if descriptor >= 0 {
            #if canImport(Glibc)
            _ = Glibc.close(descriptor)
            #else
            _ = Darwin.close(descriptor)
            #endif
            descriptor = -1
        }
    }

    /// Closes and deletes the file.
    func remove() {
        close()
        unlink(path)
    }
}

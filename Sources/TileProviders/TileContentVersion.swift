/// Which contents a tile read without waiting has: two reads of one tile with equal versions
/// gave equal bytes, so whatever is derived from the bytes (a content hash, an encoded answer
/// head) can be kept by version and tile instead of being made again for every request.
public struct TileContentVersion: Sendable, Hashable {
    /// The file read (a replaced file is another version).
    public var file: FileIdentity
    /// The reader that read it (each has its own view of changes; never reused in a process).
    public var reader: UInt64
    /// A number the reader moves whenever it finds the file's contents changed (for SQLite,
    /// its data version).
    public var dataVersion: UInt32

    /// A version.
    public init(file: FileIdentity, reader: UInt64, dataVersion: UInt32) {
        self.file = file
        self.reader = reader
        self.dataVersion = dataVersion
    }
}

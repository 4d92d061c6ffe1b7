extension PMTilesHeader {
    /// A directory or metadata section's bytes, decompressed per the internal compression.
    func decompressInternal(_ raw: [UInt8]) throws(PMTilesFormatError) -> [UInt8] {
        switch internalCompression {
        case .none: return raw
        case .gzip: return try Inflate.gunzip(raw)
        case let other: throw PMTilesFormatError("internal compression \(other) is not supported (gzip or none)")
        }
    }
}

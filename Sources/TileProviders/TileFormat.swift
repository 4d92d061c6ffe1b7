/// A layer's tile encoding: what its URLs end with, what `Content-Type` its tiles carry, and
/// the bytes every stored tile must start with (SPEC "Tile formats"). A closed domain: an enum.
public enum TileFormat: String, Sendable, CaseIterable, CustomStringConvertible {
    /// PNG images.
    case png
    /// JPEG images.
    case jpg
    /// WebP images.
    case webp
    /// Mapbox Vector Tiles (protobuf), stored raw or gzip-compressed.
    case pbf

    /// The extension of its tile URLs (no dot).
    public var fileExtension: String { rawValue }

    /// Every URL extension that answers with this format: `.jpeg` and `.mvt` too.
    public var fileExtensions: [String] {
        switch self {
        case .png: return ["png"]
        case .jpg: return ["jpg", "jpeg"]
        case .webp: return ["webp"]
        case .pbf: return ["pbf", "mvt"]
        }
    }

    /// `Content-Type` of its tiles.
    public var contentType: String {
        switch self {
        case .png: return "image/png"
        case .jpg: return "image/jpeg"
        case .webp: return "image/webp"
        case .pbf: return "application/vnd.mapbox-vector-tile"
        }
    }

    /// Whether tiles are images (`@2x`, composites and `/static` can draw them) rather than vector data.
    public var isRaster: Bool { self != .pbf }

    /// The name people use, for messages ("is not a JPEG").
    public var displayName: String {
        switch self {
        case .png: return "PNG"
        case .jpg: return "JPEG"
        case .webp: return "WebP"
        case .pbf: return "vector tile (raw or gzip-compressed MVT)"
        }
    }

    public var description: String { rawValue }

    /// The format a configuration or metadata names: `png`, `jpg`/`jpeg`, `webp`, `pbf`/`mvt`
    /// (any case, surrounding spaces ignored); nil for anything else.
    public init?(name: String) {
        let text = name.trimmingSpaces.lowercased()
        guard let format = Self.allCases.first(where: { $0.fileExtensions.contains(text) }) else { return nil }
        self = format
    }

    /// The format whose URL extension is exactly `fileExtension` (`png`, `jpg`, `jpeg`, `webp`, `pbf`, `mvt`).
    public init?(fileExtension: String) {
        var text = fileExtension
        guard let format = text.withUTF8({ TileFormat(fileExtension: $0) }) else { return nil }
        self = format
    }

    /// The format whose URL extension is exactly these bytes (a request path's, read in place).
    public init?(fileExtension bytes: UnsafeBufferPointer<UInt8>) {
        // Six short names, each one integer: a scan of six integer compares.
        guard let key = Self.extensionKey(bytes),
              let found = Self.byExtension.first(where: { $0.key == key })
        else { return nil }
        self = found.format
    }

    /// Every extension with its format, made once (a tile request looks its extension up here),
    /// each extension as its `extensionKey`.
    private static let byExtension: [(key: UInt64, format: TileFormat)] = allCases.flatMap { format in
        format.fileExtensions.map { name in
            var bytes = name
            guard let key = bytes.withUTF8({ extensionKey($0) }) else {
                preconditionFailure("URL extension \"\(name)\" is longer than \(maxExtensionBytes) bytes")
            }
            return (key: key, format: format)
        }
    }

    /// The longest URL extension `extensionKey` holds.
    private static let maxExtensionBytes = 7

    /// Up to `maxExtensionBytes` bytes and their count (the top byte) in one integer; nil for
    /// more, which is no extension's.
    private static func extensionKey(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64? {
        guard bytes.count <= maxExtensionBytes else { return nil }
        var key = UInt64(bytes.count) << 56
        for (index, byte) in bytes.enumerated() { key |= UInt64(byte) << (8 * index) }
        return key
    }

    /// The format a path or URL template's file extension names (`{z}/{x}/{y}.jpg`, a query
    /// string ignored); nil when it has none this enum knows.
    public init?(pathExtensionOf template: String) {
        let path = template.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let last = path.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        guard let dot = last.lastIndex(of: ".") else { return nil }
        self.init(name: String(last[last.index(after: dot)...]))
    }

    /// Whether `data` starts as tiles of this format do (their magic bytes). PNG: the 8-byte
    /// signature (PNG §5.2); JPEG: SOI and a marker (FF D8 FF); WebP: a RIFF container of type
    /// `WEBP`; MVT: gzip (1F 8B), or raw protobuf whose first field is `layers` (tag 0x1A, MVT 2.1
    /// §4.1), or empty (a tile with no layers).
    public func matches(_ data: [UInt8]) -> Bool {
        switch self {
        case .png:
            return data.count > Self.pngSignature.count && data.starts(with: Self.pngSignature)
        case .jpg:
            return data.count > 3 && data[0] == 0xFF && data[1] == 0xD8 && data[2] == 0xFF
        case .webp:
            return data.count > 12 && data.starts(with: Array("RIFF".utf8)) && data[8 ..< 12].elementsEqual("WEBP".utf8)
        case .pbf:
            return data.isEmpty || Self.isGzip(data) || data[0] == Self.mvtLayersTag
        }
    }

    /// Whether `data` is gzip-compressed (RFC 1952 §2.3.1: ID1 ID2).
    public static func isGzip(_ data: [UInt8]) -> Bool {
        data.count >= 2 && data[0] == 0x1F && data[1] == 0x8B
    }

    /// The 8-byte signature every PNG file starts with (PNG spec §5.2).
    public static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    /// Field 3 (`layers`), wire type 2: how a non-empty raw vector tile starts.
    static let mvtLayersTag: UInt8 = 0x1A
}

import Foundation

extension MBTilesMetadata {
    /// The format the `format` row names (`jpeg` and `mvt` included); nil when absent or unknown.
    public var tileFormat: TileFormat? { format.flatMap { TileFormat(name: $0) } }

    /// The `vector_layers` array as JSON text: MBTiles 1.3 keeps it in the `json` row's object,
    /// PMTiles (and some writers) as a top-level `vector_layers` key. Nil when neither has one.
    public var vectorLayersJSON: String? {
        if let direct = values["vector_layers"], Self.isJSONArray(direct) { return direct }
        guard let text = values["json"],
              let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
              let layers = object["vector_layers"] as? [Any],
              let data = try? JSONSerialization.data(withJSONObject: layers, options: [.sortedKeys])
        else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    private static func isJSONArray(_ text: String) -> Bool {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) is [Any]
    }
}

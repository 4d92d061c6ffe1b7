import Foundation
import TileGeometry

extension PMTilesArchive {
    /// The header's zoom range, bounds and center with the JSON metadata's `name`,
    /// `attribution` and `description` (spec §5: a JSON object, any keys).
    static func metadata(header: PMTilesHeader, json: [UInt8]) throws(PMTilesFormatError) -> MBTilesMetadata {
        var values: [String: String] = [:]
        if !json.isEmpty {
            guard let object = try? JSONSerialization.jsonObject(with: Data(json)) as? [String: Any] else {
                throw PMTilesFormatError("the metadata is not a JSON object")
            }
            for (key, value) in object {
                if let text = value as? String {
                    values[key] = text
                } else if let data = try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed]) {
                    values[key] = String(decoding: data, as: UTF8.self)
                }
            }
        }
        return MBTilesMetadata(
            name: values["name"], format: header.tileType.description, bounds: header.bounds,
            center: .init(longitude: header.centerLongitude, latitude: header.centerLatitude, zoom: header.centerZoom),
            minZoom: header.minZoom, maxZoom: header.maxZoom,
            attribution: values["attribution"], description: values["description"], values: values)
    }
}

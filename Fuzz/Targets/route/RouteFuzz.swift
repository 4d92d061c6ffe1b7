// Fuzz target: request-target parsing, routing and URL-template parsing on arbitrary text.

import TileGeometry
import TileHTTP
import TileProviders
import TileServer

private let floor = try! URLTemplateVariable(name: "floor", allowedValues: ["1", "2"], defaultValue: "1")
private let anyValue = try! URLTemplateVariable(name: "v", defaultValue: "a")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRoute(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    if let target = try? HTTPRequestTarget(parsing: text) {
        for segment in target.pathSegments where segment.isEmpty || segment == "." || segment == ".."
            || segment.contains("/") || segment.utf8.contains(0)
        {
            fatalError("unsafe segment \(segment.debugDescription) from \(text.debugDescription)")
        }
        let request = HTTPRequest(method: .get, target: text, pathSegments: target.pathSegments, query: target.query)
        _ = request.queryItems
        if case .route(.tile(let tile)) = Router.match(target.pathSegments), tile.z < 24, tile.z >= 0,
           tile.x >= 0, tile.y >= 0, tile.x < 1 << tile.z, tile.y < 1 << tile.z
        {
            _ = TileCoordinate(z: tile.z, x: tile.x, y: tile.y).quadkey
        }
    }
    _ = PercentDecoding.decodeQueryComponent(text)
    if let template = try? URLTemplate(text, subdomains: ["a", "b"], variables: [floor, anyValue]) {
        for (z, x, y) in [(0, 0, 0), (3, 5, 2), (18, 130_000, 87_000)] {
            _ = template.url(for: TileRequest(x: x, y: y, zoom: z, variables: ["floor": "2"]))
        }
    }
    return 0
}

import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import TileHTTP
@testable import TileServer

/// The service of the OGC tests: the shipped world layer, and `plan`, a small box (in column 15,
/// row 10 at zoom 5) at zooms 2-5 with a description that needs escaping.
enum OGCFixtures {
    static let planYAML = """
      - name: plan
        source: {type: debug}
        minZoom: 2
        maxZoom: 5
        bounds: [-0.1292, 51.5180, -0.1248, 51.5208]
        description: "Floors <1> & \\"2\\""
    """

    static func service(server: String = "", folder: TemporaryFolder) throws -> TileService {
        try Fixtures.service(extraYAML: planYAML, server: server, folder: folder)
    }
}

/// Namespaces of WMTS 1.0 documents.
enum OGCNamespace {
    static let wmts = "http://www.opengis.net/wmts/1.0"
    static let ows = "http://www.opengis.net/ows/1.1"
}

/// An XML answer parsed by Foundation (libxml2), an implementation independent of our writer.
struct ParsedXML {
    let root: XMLElement

    init(_ response: HTTPResponse) throws {
        let document = try XMLDocument(data: Data(response.body), options: [])
        root = try #require(document.rootElement())
    }
}

extension XMLElement {
    /// Child elements called `name` in namespace `uri` (WMTS by default). Compared by hand:
    /// Linux Foundation's `elements(forLocalName:uri:)` misses prefixed children.
    func children(_ name: String, _ uri: String = OGCNamespace.wmts) -> [XMLElement] {
        (children ?? []).compactMap { $0 as? XMLElement }.filter { $0.localName == name && $0.uri == uri }
    }

    /// The one child called `name`; a test failure when there is none.
    func child(_ name: String, _ uri: String = OGCNamespace.wmts) throws -> XMLElement {
        try #require(children(name, uri).first, "no \(name) in \(self.name ?? "?")")
    }

    /// The text of the one child called `name`.
    func text(_ name: String, _ uri: String = OGCNamespace.wmts) throws -> String {
        try child(name, uri).stringValue ?? ""
    }

    /// The attribute `name` (no namespace) or `prefix:name`, found by hand: Linux Foundation's
    /// `attribute(forName:)` misses unprefixed attributes of an element in a default namespace.
    func value(_ name: String) -> String? {
        attributes?.first { $0.name == name }?.stringValue
    }
}

// RFC 9110 §15.5.6: a method the route does not allow is 405 with `Allow`, whether or not the
// request carries a body; only a method the route takes is then refused for a body it does not
// take (413). Every route kind, on both transports, over a live socket.
//
// EXPECTED TO FAIL until the one-line fix in Sources/TileServer/HTTP/TileService.swift
// (`classify`: check the method before `request.announcedBodyLength > 0`) lands: on 49dfc98 a
// read-only route answers a wrong method with a body `413 this route takes no request body`.

import Foundation
import Sockets
import TestHTTPClient
import Testing
import TileHTTP
import TestThreads

@Suite(.ownThreads, .timeLimit(.minutes(1))) struct MethodBeforeBodyTests {
    let folder = TemporaryFolder()

    /// One path of each route kind, with the methods it allows.
    static let routes: [(kind: String, path: String, allow: String)] = [
        ("tile", "/world/3/0/7.png", "GET, HEAD, OPTIONS"),
        ("default-layer tile", "/3/0/7.png", "GET, HEAD, OPTIONS"),
        ("TileJSON", "/world.json", "GET, HEAD, OPTIONS"),
        ("TileJSON index", "/index.json", "GET, HEAD, OPTIONS"),
        ("index page", "/", "GET, HEAD, OPTIONS"),
        ("asset", "/assets/leaflet/leaflet.js", "GET, HEAD, OPTIONS"),
        ("static", "/static/world/0,0,1/64x64.png", "GET, HEAD, OPTIONS"),
        ("camera", "/camera/world/0,0,1/64x64.json", "GET, HEAD, OPTIONS"),
        ("wmts", "/wmts/1.0.0/WMTSCapabilities.xml", "GET, HEAD, OPTIONS"),
        ("ogc", "/ogc/collections", "GET, HEAD, OPTIONS"),
        ("metrics", "/metrics", "GET, HEAD, OPTIONS"),
        ("healthz", "/healthz", "GET, HEAD, OPTIONS"),
        ("readyz", "/readyz", "GET, HEAD, OPTIONS"),
        ("admin clear-cache", "/admin/layers/world/clear-cache", "POST"),
        ("admin reload", "/admin/reload", "POST"),
    ]

    /// Methods a route does not allow: POST, PUT and DELETE on the read-only routes, GET and PUT
    /// on the admin ones.
    static func wrongMethods(allow: String) -> [String] {
        allow == "POST" ? ["GET", "PUT"] : ["POST", "PUT", "DELETE"]
    }

    @Test(arguments: IOTransport.available)
    func aWrongMethodWithABodyIs405WithAllowOnEveryRoute(transport: IOTransport) async throws {
        let service = try Fixtures.adminService(layer: "world", provider: CountingProvider { x, y, zoom in
            CountingProvider.solid(x: x, y: y, zoom: zoom)
        }, folder: folder)
        let live = try LiveServer(responder: service) { $0.transport = transport }
        var answers: [String] = []
        for (kind, path, allow) in Self.routes {
            for method in Self.wrongMethods(allow: allow) {
                let client = try RawHTTPClient(port: live.port)
                client.send("\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1\r\n\r\nx")
                let response = client.readResponse(head: false)
                let seen = response.map { "\($0.status) Allow: \($0.header("Allow") ?? "none") \($0.text)" } ?? "no answer"
                if response?.status != 405 || response?.header("Allow") != allow {
                    answers.append("\(kind) \(method) \(path): \(seen)")
                }
            }
        }
        await live.stop()
        #expect(answers.isEmpty, "not 405 with Allow:\n\(answers.joined(separator: "\n"))")
    }

    /// The body check still holds where the method is allowed: GET with a body is 413.
    @Test(arguments: IOTransport.available)
    func anAllowedMethodWithABodyIsStill413(transport: IOTransport) async throws {
        let live = try LiveServer(responder: try Fixtures.service(folder: folder)) { $0.transport = transport }
        let client = try RawHTTPClient(port: live.port)
        client.send("GET /world/3/0/7.png HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1\r\n\r\nx")
        #expect(client.readResponse()?.status == 413)
        await live.stop()
    }
}

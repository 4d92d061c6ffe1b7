// Runs a real HTTPServer on a loopback port for a test, on the transport asked for.

import Logging
import Sockets
@testable import TileHTTP

/// Starts a server answering with `responder` (`SizedResponder`) on `transport`, runs `body` with its port,
/// and always shuts it down (the server must outlive its connections).
func withLiveServer(
    _ transport: IOTransport, responder: any HTTPResponder = SizedResponder(),
    configure: (inout HTTPServerConfiguration) -> Void = { _ in }, _ body: (Int) throws -> Void
) async throws {
    var configuration = HTTPServerConfiguration(host: "127.0.0.1", port: 0, accessLog: false, transport: transport)
    configure(&configuration)
    let server = HTTPServer(configuration: configuration, responder: responder,
                            logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() })
    let port = try server.start()
    var failure: (any Error)?
    do { try body(port) } catch { failure = error }
    await withCheckedContinuation { continuation in server.shutdown(gracePeriod: 1) { continuation.resume() } }
    if let failure { throw failure }
}

/// How long a live test's client waits for data before it gives up (`RawHTTPClient`'s
/// `timeoutSeconds`): shorter than its default 10 s, since these servers answer at once, and a
/// test that checks that a server keeps a connection open waits that long each time.
let liveReadTimeout = 5

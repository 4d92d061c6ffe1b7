import Dispatch
import Synchronization
import TileHTTP
import TilePNG

/// An upstream tile server for tests, run by `LiveServer` (a real server of ours, not a mock of
/// the client): solid tiles whose blue is `version`, 500 while `broken`; it counts requests,
/// records each path's first segment (the `{s}` subdomain) and the most requests in flight.
final class TestUpstream: HTTPResponder, Sendable {
    let version = Atomic<Int>(1)
    let broken = Atomic<Bool>(false)
    let requests = Atomic<Int>(0)
    let firstSegments = Mutex<[String]>([])
    let mostInFlight = Atomic<Int>(0)
    private let inFlight = Atomic<Int>(0)
    /// Seconds each answer takes.
    let delay: Double

    init(delay: Double = 0) { self.delay = delay }

    func respond(
        to request: HTTPRequest, context: HTTPRequestContext, completion: @escaping @Sendable (HTTPResponse) -> Void
    ) -> HTTPResponse? {
        requests.add(1, ordering: .relaxed)
        firstSegments.withLock { $0.append(request.pathSegments.first ?? "") }
        if broken.load(ordering: .relaxed) { return .text(.internalServerError, "down") }
        let color = RGBAColor(red: 0, green: 0, blue: UInt8(version.load(ordering: .relaxed)))
        let png = try! PNGEncoder().encode(RGBAImage(width: 256, height: 256, fill: color))
        let answer = HTTPResponse(status: .ok, headers: [.contentType: "image/png"], body: png)
        guard delay > 0 else { return answer }
        mostInFlight.max(inFlight.add(1, ordering: .relaxed).newValue, ordering: .relaxed)
        DispatchQueue.global().asyncAfter(deadline: .now() + delay) { [self] in
            inFlight.subtract(1, ordering: .relaxed)
            completion(answer)
        }
        return nil
    }
}

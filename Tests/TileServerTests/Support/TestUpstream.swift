import Dispatch
import Synchronization
import TileHTTP
import TilePNG

/// An upstream tile server for tests, run by `LiveServer` (a real server of ours, not a mock of
/// the client): solid tiles whose blue is `version`, 500 while `broken`; it counts requests,
/// records each path's first segment (the `{s}` subdomain) and the most requests in flight.
/// With `gather`, a delayed answer also waits until that many requests have been in flight at
/// once (or `gatherSeconds` passed, after which nothing waits for it): a client allowed that
/// many at a time reaches it however the machine schedules, one that is not does not.
final class TestUpstream: HTTPResponder, Sendable {
    let version = Atomic<Int>(1)
    let broken = Atomic<Bool>(false)
    let requests = Atomic<Int>(0)
    let firstSegments = Mutex<[String]>([])
    let mostInFlight = Atomic<Int>(0)
    private let inFlight = Atomic<Int>(0)
    /// Seconds each answer takes.
    let delay: Double
    let gather: Int
    let gatherSeconds: Double
    private let gatherGaveUp = Atomic<Bool>(false)

    init(delay: Double = 0, gather: Int = 1, gatherSeconds: Double = 10) {
        self.delay = delay
        self.gather = gather
        self.gatherSeconds = gatherSeconds
    }

    func respond(
        to request: HTTPRequest, completion: @escaping @Sendable (HTTPResponse) -> Void
    ) -> HTTPResponse? {
        requests.add(1, ordering: .relaxed)
        firstSegments.withLock { $0.append(request.pathSegments.first ?? "") }
        if broken.load(ordering: .relaxed) { return .text(.internalServerError, "down") }
        let color = RGBAColor(red: 0, green: 0, blue: UInt8(version.load(ordering: .relaxed)))
        let png = try! PNGEncoder().encode(RGBAImage(width: 256, height: 256, fill: color))
        let answer = HTTPResponse(status: .ok, headers: [.contentType: "image/png"], body: png)
        guard delay > 0 else { return answer }
        mostInFlight.max(inFlight.add(1, ordering: .relaxed).newValue, ordering: .relaxed)
        answerOnceGathered(since: .now()) { [self] in
            DispatchQueue.global().asyncAfter(deadline: .now() + delay) { [self] in
                inFlight.subtract(1, ordering: .relaxed)
                completion(answer)
            }
        }
        return nil
    }

    /// Runs `answer` once `gather` requests have been in flight together, or the wait for that
    /// started `gatherSeconds` ago (then no later request waits either).
    private func answerOnceGathered(since start: DispatchTime, _ answer: @escaping @Sendable () -> Void) {
        let waited = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        if waited >= gatherSeconds { gatherGaveUp.store(true, ordering: .relaxed) }
        guard mostInFlight.load(ordering: .relaxed) < gather, !gatherGaveUp.load(ordering: .relaxed) else {
            return answer()
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.01) { [self] in answerOnceGathered(since: start, answer) }
    }
}

import Synchronization
import TileHTTP

/// A tile answer that is not ready on the event loop: it goes to the connection once, whichever
/// comes first — the work's answer, or at the tile's deadline the answer `expire` was given (a
/// 503 with the layer's CORS header, counted under route "tile": the connection's own answer
/// timeout, a moment later, knows neither). Work that ends after the deadline is dropped.
final class DeferredAnswer: Sendable {
    private let completion: @Sendable (HTTPResponse) -> Void
    private let whenAnswered: (@Sendable () -> Void)?
    private let answered = Atomic<Bool>(false)
    /// The key of its deadline in `AnswerDeadlines.shared`; 0 while it has none.
    private let deadline = Atomic<UInt64>(0)

    /// An answer for `completion`; `whenAnswered` runs once it went.
    init(_ completion: @escaping @Sendable (HTTPResponse) -> Void, whenAnswered: (@Sendable () -> Void)? = nil) {
        self.completion = completion
        self.whenAnswered = whenAnswered
    }

    /// Sends `response`, unless an answer went already.
    func deliver(_ response: HTTPResponse) {
        guard !answered.exchange(true, ordering: .sequentiallyConsistent) else { return }
        let id = deadline.load(ordering: .sequentiallyConsistent)
        if id != 0 { AnswerDeadlines.shared.remove(id) }
        completion(response)
        whenAnswered?()
    }

    /// `deliver` as a completion handler.
    var handler: @Sendable (HTTPResponse) -> Void { { [self] in deliver($0) } }

    /// At `seconds` from now, sends what `timeout` makes, unless an answer went already.
    func expire(after seconds: Double, with timeout: @escaping @Sendable () -> HTTPResponse) {
        let id = AnswerDeadlines.shared.add(after: seconds) { [self] in
            guard !answered.load(ordering: .acquiring) else { return }
            deliver(timeout())
        }
        // Sequentially consistent with `deliver`'s exchange and load: one of the two sides sees
        // the other's write, so an answer given meanwhile never leaves its deadline behind.
        deadline.store(id, ordering: .sequentiallyConsistent)
        if answered.load(ordering: .sequentiallyConsistent) { AnswerDeadlines.shared.remove(id) }
    }

    /// The tile deadline for a server whose connections wait `answerSeconds` for an answer:
    /// earlier, so the tile's own 503 is the one sent — by a tenth of it up to a second, and by
    /// at least two sweeps of either deadline (both are found by sweeps a quarter second
    /// apart), but never by more than half of it.
    static func tileDeadline(answerSeconds: Double) -> Double {
        let margin = max(min(1, answerSeconds / 10), 2 * AnswerDeadlines.sweepInterval)
        return answerSeconds - min(margin, answerSeconds / 2)
    }
}

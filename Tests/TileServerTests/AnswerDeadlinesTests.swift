import Synchronization
import Testing
import TileHTTP
@testable import TileServer

/// The tile answers' deadlines: fired once when due, never after their answer went, and an
/// answer given lets go of what its deadline captured at once, not when the deadline passes.
@Suite struct AnswerDeadlinesTests {
    final class Captured: Sendable {}

    @Test func aDueDeadlineFiresOnceAndARemovedOneNever() async throws {
        let deadlines = AnswerDeadlines()
        let fired = Atomic<Int>(0), removedFired = Atomic<Int>(0)
        _ = deadlines.add(after: 0.05) { fired.add(1, ordering: .relaxed) }
        let removed = deadlines.add(after: 0.05) { removedFired.add(1, ordering: .relaxed) }
        deadlines.remove(removed)
        #expect(try await eventually { fired.load(ordering: .relaxed) == 1 })
        #expect(deadlines.count == 0)
        try await Task.sleep(for: .seconds(2 * AnswerDeadlines.sweepInterval))
        #expect(fired.load(ordering: .relaxed) == 1)
        #expect(removedFired.load(ordering: .relaxed) == 0)
        // A deadline added once none waits is swept too.
        _ = deadlines.add(after: 0) { fired.add(1, ordering: .relaxed) }
        #expect(try await eventually { fired.load(ordering: .relaxed) == 2 })
    }

    @Test func anAnswerGivenBeforeItsDeadlineIsSentOnceAndLetsGoAtOnce() async throws {
        let sent = Mutex<[HTTPStatus]>([])
        weak var weakCaptured: Captured?
        do {
            let captured = Captured()
            weakCaptured = captured
            let answer = DeferredAnswer { response in sent.withLock { $0.append(response.status) } }
            answer.expire(after: 60) { _ = captured; return HTTPResponse(status: .serviceUnavailable) }
            answer.deliver(HTTPResponse(status: .ok))
            answer.deliver(HTTPResponse(status: .notFound))
        }
        #expect(sent.withLock { $0 } == [.ok])
        #expect(weakCaptured == nil, "the deadline still holds what it captured after its answer went")
    }

    @Test func anAnswerNotGivenInTimeIsTheDeadlinesAndWorkLaterIsDropped() async throws {
        let sent = Mutex<[HTTPStatus]>([])
        let answer = DeferredAnswer { response in sent.withLock { $0.append(response.status) } }
        answer.expire(after: 0.05) { HTTPResponse(status: .serviceUnavailable) }
        #expect(try await eventually { !sent.withLock { $0 }.isEmpty })
        answer.deliver(HTTPResponse(status: .ok))
        #expect(sent.withLock { $0 } == [.serviceUnavailable])
    }
}

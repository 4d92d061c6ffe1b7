import Synchronization

/// One fill in progress, shared by every caller that missed the same key while
/// it ran; each of them receives its single result.
///
/// A fill outlives the cache's interest in it: if the key is cleared meanwhile,
/// the fill is retired (its result will not be stored and new lookups start a
/// new fill), yet its waiters still receive its result.
public final class PendingCacheFill<Value: Sendable>: Sendable {
    /// A function that receives the result of the fill.
    public typealias Handler = @Sendable (Result<Value, any Error>) -> Void

    private enum State {
        case running([Handler])
        case finished(Result<Value, any Error>)
    }

    private let state = Mutex(State.running([]))

    init() {}

    /// Calls `handler` once with the fill's value or error: right away, on this
    /// thread, if the fill has finished; otherwise on the thread that completes
    /// the fill, after the cache has been updated and outside any lock. Handlers
    /// should be quick or hand their work to a queue of their own.
    public func onCompletion(_ handler: @escaping Handler) {
        let finished: Result<Value, any Error>? = state.withLock { state in
            switch state {
            case .running(var handlers):
                state = .running([])  // keep `handlers` uniquely referenced
                handlers.append(handler)
                state = .running(handlers)
                return nil
            case .finished(let result):
                return result
            }
        }
        if let finished { handler(finished) }
    }

    /// The fill's value, or its error, once it finishes.
    ///
    /// Waiting does not end early when the waiting task is cancelled: the fill is
    /// shared, and its result arrives as soon as the filler completes it.
    public var value: Value {
        get async throws {
            try await withCheckedThrowingContinuation { continuation in
                onCompletion { continuation.resume(with: $0) }
            }
        }
    }

    /// Records the result and runs the waiting handlers. Only the first call has
    /// an effect.
    func finish(with result: Result<Value, any Error>) {
        let handlers: [Handler] = state.withLock { state in
            guard case .running(let handlers) = state else { return [] }
            state = .finished(result)
            return handlers
        }
        for handler in handlers { handler(result) }
    }
}

import Synchronization

/// Lets an answer be given again, for a short while, to a request whose head is byte for byte
/// the same (see `HTTPHeadMemo`): the application marks such a response (`HTTPResponse.reuse`)
/// when nothing but the request's head and the application's own state decides it (a cached
/// answer encoded once, say), and revokes the answers it marked after changing that state (a
/// cache cleared, a configuration reloaded). An answer is given again for at most
/// `HTTPServerConfiguration.reusedAnswerLifetime`, so one whose source changed without a revoke
/// (a file replaced on disk) is not given much longer; one whose mark is pinned (its source
/// changes only with a revoke, or rarely: a tile in the application's memory cache) for
/// `HTTPServerConfiguration.reusedPinnedAnswerLifetime`.
public final class HTTPAnswerReuse: Sendable {
    /// Revokes so far.
    private let revocations = Atomic<UInt64>(0)

    /// A reuse.
    public init() {}

    /// A mark for an answer made from the state seen now. Take it before reading that state,
    /// and revoke after changing it: an answer made from the old state then never carries a
    /// mark taken after the revoke.
    public func mark() -> Mark {
        Mark(reuse: self, revocations: revocations.load(ordering: .acquiring), tag: nil, body: nil, isPinned: false)
    }

    /// Answers marked before now are not given again.
    public func revoke() {
        revocations.add(1, ordering: .releasing)
    }

    /// An answer's mark: its reuse and the revocations it has seen, and a tag.
    public struct Mark: Sendable {
        let reuse: HTTPAnswerReuse
        let revocations: UInt64
        /// What the application keeps with the answer, handed back to
        /// `HTTPResponder.answeredAgain(_:)` (the counters it counts the answer in, found once
        /// when the answer was made rather than on every reuse); never sent.
        public private(set) var tag: (any AnyObject & Sendable)?
        /// What stands for the answer's body bytes, when the application names them (a tile's
        /// content version): two answers whose marks name the same object, with bodies of the
        /// same length, have the same bytes, so the memo keeps one copy for both. Never sent.
        public private(set) var body: (any AnyObject & Sendable)?
        /// Whether the answer's source changes only with a revoke, or rarely (a tile held in the
        /// application's memory cache: a clear or a reload revokes; one evicted and read again
        /// from a changed source is the rare case): the memo gives it again for its longer
        /// pinned lifetime (`HTTPServerConfiguration.reusedPinnedAnswerLifetime`), which bounds
        /// how much later that rare change is seen.
        public private(set) var isPinned: Bool

        /// The same mark, tagged with `tag`.
        public func tagged(_ tag: any AnyObject & Sendable) -> Mark {
            var mark = self
            mark.tag = tag
            return mark
        }

        /// The same mark, its answer's body named by `body` (see `body`).
        public func naming(body: any AnyObject & Sendable) -> Mark {
            var mark = self
            mark.body = body
            return mark
        }

        /// The same mark, pinned (see `isPinned`).
        public func pinned() -> Mark {
            var mark = self
            mark.isPinned = true
            return mark
        }

        /// Whether no revoke came after the mark was taken.
        var isCurrent: Bool { reuse.revocations.load(ordering: .acquiring) == revocations }
    }
}

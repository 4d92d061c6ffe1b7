import Synchronization

/// Lets an answer be given again, for a short while, to a request whose head is byte for byte
/// the same (see `HTTPHeadMemo`): the application marks such a response (`HTTPResponse.reuse`)
/// when nothing but the request's head and its own state decides it (a cached tile's prepared
/// answer, say), and revokes the answers it marked when that state changes (a cache clear), or
/// retires the reuse for good (the state was replaced). An answer is given again for at most
/// `lifetime`, so one whose source changed without a revoke (a file replaced on disk) is not
/// given much longer.
public final class HTTPAnswerReuse: Sendable {
    /// Revokes so far; the top bit once retired.
    private let revocations = Atomic<UInt64>(0)
    private static let retiredBit: UInt64 = 1 << 63

    /// How long an answer is given again after it was made, nanoseconds.
    public static let lifetime: UInt64 = 100_000_000

    /// A reuse.
    public init() {}

    /// A mark for an answer made from the state seen now, called `tag` by the application (a
    /// layer's name: handed back to `HTTPResponder.answeredAgain(_:)`, for its counters). Take it
    /// before reading that state (a cache lookup), and revoke after changing it, so an answer
    /// made from the old state never carries a mark made after the revoke.
    public func mark(tag: String) -> Mark {
        Mark(reuse: self, revocations: revocations.load(ordering: .acquiring), tag: tag)
    }

    /// Answers marked before now are not given again.
    public func revoke() {
        revocations.add(1, ordering: .releasing)
    }

    /// No answer marked by this reuse, before or after, is given again.
    public func retire() {
        revocations.bitwiseOr(Self.retiredBit, ordering: .releasing)
    }

    /// An answer's mark: its reuse and the revocations it has seen, and its tag.
    public struct Mark: Sendable {
        let reuse: HTTPAnswerReuse
        let revocations: UInt64
        /// What the application calls the answer.
        public let tag: String

        /// Whether no revoke came after the mark was made, and the reuse is not retired.
        var isCurrent: Bool {
            revocations & HTTPAnswerReuse.retiredBit == 0 && reuse.revocations.load(ordering: .acquiring) == revocations
        }
    }
}

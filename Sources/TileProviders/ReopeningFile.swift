import Dispatch
import Synchronization

/// A file a provider reads (an MBTiles database, a PMTiles archive), reopened when it is
/// replaced on disk. At most once per `recheckInterval` one reader `stat`s the file; when its
/// identity changed (new inode, size or time) later reads get a freshly opened value, while
/// reads under way finish on the old one. The `stat` and any reopening happen outside the lock.
final class ReopeningFile<Opened: Sendable>: Sendable {
    /// What readers currently read from.
    enum Source: Sendable {
        case open(Opened)
        /// The file is absent (tiles are "not available now").
        case missing
        /// The file is there but cannot be used (replaced by a broken copy); retried at each check.
        case failed(TileProviderError)
    }

    typealias Opener = @Sendable (FileIdentity) throws(TileProviderError) -> Opened

    let path: String
    let recheckInterval: Duration
    private let identity: @Sendable (Opened) -> FileIdentity
    private let opener: Opener
    private let state: Mutex<State>

    private struct State: Sendable {
        var source: Source
        var lastOpened: Opened
        var nextCheck: ContinuousClock.Instant
        var checking = false
    }

    /// Opens `path` now with `opener` (its errors are start-up errors); `.fileNotFound` when absent.
    init(
        path: String, recheckInterval: Duration, identity: @escaping @Sendable (Opened) -> FileIdentity,
        opener: @escaping Opener
    ) throws(TileProviderError) {
        guard let found = try FileIdentity.of(path) else { throw .fileNotFound(path: path) }
        let opened = try opener(found)
        self.path = path
        self.recheckInterval = recheckInterval
        self.identity = identity
        self.opener = opener
        state = Mutex(State(source: .open(opened), lastOpened: opened, nextCheck: .now + recheckInterval))
    }

    /// The value opened last with success.
    var lastOpened: Opened { state.withLock { $0.lastOpened } }

    /// The source to read from, re-checked against the disk when the interval has passed.
    /// Only one reader checks at a time; the others keep using the current source meanwhile.
    func current() -> Source {
        let (source, mustCheck) = sourceClaimingDueCheck()
        return mustCheck ? check(source) : source
    }

    /// The source to read from now, for a reader that must not wait (an event loop): a check
    /// that fell due is made on another thread (Dispatch's), and until it ends this reader, like
    /// the others, keeps using the current source.
    func currentWithoutWaiting() -> Source {
        let (source, mustCheck) = sourceClaimingDueCheck()
        if mustCheck { DispatchQueue.global(qos: .utility).async { _ = self.check(source) } }
        return source
    }

    /// The current source, and whether the caller is to check the file (a check is due and no
    /// one else is making it: the caller then must call `check`).
    private func sourceClaimingDueCheck() -> (Source, Bool) {
        let now = ContinuousClock.now
        return state.withLock { state -> (Source, Bool) in
            guard !state.checking, now >= state.nextCheck else { return (state.source, false) }
            state.checking = true
            return (state.source, true)
        }
    }

    /// Checks the file (a `stat`, and an open when it was replaced) and makes the outcome current.
    private func check(_ source: Source) -> Source {
        let fresh = refreshed(source)
        state.withLock { state in
            state.source = fresh
            if case .open(let opened) = fresh { state.lastOpened = opened }
            state.checking = false
            state.nextCheck = .now + recheckInterval
        }
        return fresh
    }

    /// `source` if the file is unchanged, else what the file on disk is now.
    private func refreshed(_ source: Source) -> Source {
        let found: FileIdentity?
        do { found = try FileIdentity.of(path) } catch { return .failed(error) }
        guard let found else { return .missing }
        if case .open(let opened) = source, identity(opened) == found { return source }
        do { return .open(try opener(found)) } catch { return .failed(error) }
    }
}

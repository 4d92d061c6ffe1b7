import Synchronization

/// A file a provider reads (an MBTiles database, a PMTiles archive), reopened when it changes on
/// disk. At most once per `recheckInterval` one reader `stat`s the path (and any caller at once,
/// `recheck()`); when its identity changed (new inode, size or times) later reads get a freshly
/// opened value, while reads under way finish on the old one. The `stat` and any reopening
/// happen outside the lock.
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
        /// The identity of what `source` reads (nil while missing or failed).
        var identity: FileIdentity?
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
        state = Mutex(State(source: .open(opened), lastOpened: opened, identity: identity(opened),
                            nextCheck: .now + recheckInterval))
    }

    /// The value opened last with success.
    var lastOpened: Opened { state.withLock { $0.lastOpened } }

    /// The source to read from, re-checked against the disk when the interval has passed.
    /// Only one reader checks at a time; the others keep using the current source meanwhile.
    func current() -> Source {
        let now = ContinuousClock.now
        let (source, mustCheck) = state.withLock { state -> (Source, Bool) in
            guard !state.checking, now >= state.nextCheck else { return (state.source, false) }
            state.checking = true
            return (state.source, true)
        }
        return mustCheck ? check(source) : source
    }

    /// Checks the file now, whether or not the interval has passed (a clear-cache, a reload).
    func recheck() {
        let source = state.withLock { state -> Source in
            state.checking = true
            return state.source
        }
        _ = check(source)
    }

    /// A validator of tiles read from the version of identity `read`: current while the file,
    /// as last checked (at most `recheckInterval` ago), is still that version.
    func validator(for read: FileIdentity) -> any TileValidator {
        Version(file: self, identity: read)
    }

    private struct Version: TileValidator {
        let file: ReopeningFile
        let identity: FileIdentity

        func isCurrent() -> Bool {
            _ = file.current()
            return file.state.withLock { $0.identity } == identity
        }

        /// Told without a `stat` while the file's own check is not due; nil when it is.
        func isCurrentWithoutWaiting() -> Bool? {
            let now = ContinuousClock.now
            return file.state.withLock { state in now < state.nextCheck ? state.identity == identity : nil }
        }
    }

    /// Checks the file (a `stat`, and an open when it changed) and makes the outcome current.
    private func check(_ source: Source) -> Source {
        let fresh = refreshed(source)
        state.withLock { state in
            state.source = fresh
            state.identity = nil
            if case .open(let opened) = fresh {
                state.lastOpened = opened
                state.identity = identity(opened)
            }
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

internal import CTurboJPEG
import Synchronization

/// Idle TurboJPEG instances kept for reuse: creating one allocates libjpeg's state and memory
/// pools, a measurable part of a 256 px tile's encode. A handle is used by one call at a time
/// (taken out of the pool, put back after), so the handles themselves are never shared.
final class TurboJPEGHandlePool: Sendable {
    /// Idle handles kept at most (beyond that, they are destroyed): one per worker is plenty.
    static let maxIdle = 16

    static let compressors = TurboJPEGHandlePool(create: { tjInitCompress() })
    static let decompressors = TurboJPEGHandlePool(create: { tjInitDecompress() })

    /// `@unchecked Sendable`: an idle handle is touched only by whoever took it from the pool.
    private struct Idle: @unchecked Sendable {
        let raw: tjhandle
    }

    private let create: @Sendable () -> tjhandle?
    private let idle = Mutex<[Idle]>([])

    private init(create: @escaping @Sendable () -> tjhandle?) {
        self.create = create
    }

    /// An idle handle, or a new one (nil when libjpeg-turbo cannot allocate one).
    func take() -> tjhandle? {
        idle.withLock { $0.popLast()?.raw } ?? create()
    }

    /// Returns `handle` for reuse, or destroys it when enough are idle.
    func give(_ handle: tjhandle) {
        let kept = idle.withLock { list in
            guard list.count < Self.maxIdle else { return false }
            list.append(Idle(raw: handle))
            return true
        }
        if !kept { tjDestroy(handle) }
    }
}

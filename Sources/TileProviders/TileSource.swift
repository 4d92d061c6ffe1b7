/// A layer's provider, whichever protocol it speaks. The server calls a synchronous provider on
/// a thread of its worker pool (never on an event loop: it may block) and an asynchronous one
/// from a task.
public enum TileSource: Sendable {
    /// A `SyncTileProvider`.
    case sync(any SyncTileProvider)
    /// An `AsyncTileProvider`.
    case async(any AsyncTileProvider)

    /// Whether the provider draws every scale itself (`SyncTileProvider.rendersEveryScale`).
    public var rendersEveryScale: Bool {
        if case .sync(let provider) = self { return provider.rendersEveryScale }
        return false
    }

    /// The source as an asynchronous provider (a sync provider is wrapped; see `SyncProviderAdapter`).
    public var asAsync: any AsyncTileProvider {
        switch self {
        case .sync(let provider): return SyncProviderAdapter(provider)
        case .async(let provider): return provider
        }
    }
}

/// Runs a synchronous provider as an asynchronous one (a composite's members, and callers
/// outside the server, which has its own worker pool). The blocking call runs on one of
/// `BlockingLanes`, neither on the Swift-concurrency pool nor on Dispatch's shared global one.
public struct SyncProviderAdapter: AsyncTileProvider {
    /// The wrapped provider.
    public let provider: any SyncTileProvider

    /// Wraps `provider`.
    public init(_ provider: any SyncTileProvider) {
        self.provider = provider
    }

    public func requestTile(_ request: TileRequest) async throws(TileProviderError) -> TileResult {
        let result: Result<TileResult, TileProviderError> = await withCheckedContinuation { continuation in
            BlockingLanes.run {
                continuation.resume(returning: Result { () throws(TileProviderError) -> TileResult in
                    try provider.tile(for: request)
                })
            }
        }
        return try result.get()
    }
}

/// Where blocking calls awaited by async code run (a synchronous provider's read, a cache clear's
/// file removals): `count` serial Dispatch queues, taken in turn, each given a thread of its own
/// when it has work (libdispatch overcommits serial queues). Not `DispatchQueue.global()`: on
/// Linux that pool also runs Swift concurrency's jobs and adds only about a thread a second
/// while its threads block, so reads waiting there on a disk held up the very renders that
/// awaited them. At most `count` such calls run at once.
package enum BlockingLanes {
    static let count = 16
    /// Each lane's number, set on it (`DispatchQueue.getSpecific`): whether code runs on one.
    package static let lane = DispatchSpecificKey<Int>()
    private static let lanes = (0 ..< count).map { index in
        let queue = DispatchQueue(label: "tilelayer-blocking-\(index)")
        queue.setSpecific(key: lane, value: index)
        return queue
    }
    private static let next = Atomic<Int>(0)

    /// Runs `body` on the next lane.
    package static func run(_ body: @escaping @Sendable () -> Void) {
        let turn = next.wrappingAdd(1, ordering: .relaxed).oldValue
        lanes[turn & (count - 1)].async(execute: body)
    }
}

import Dispatch
import Synchronization

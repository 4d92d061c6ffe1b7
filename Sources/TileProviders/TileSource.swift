/// A layer's provider, whichever protocol it speaks. The server calls a synchronous provider on
/// a thread of its worker pool (never on an event loop: it may block) and an asynchronous one
/// from a task.
public enum TileSource: Sendable {
    /// A `SyncTileProvider`.
    case sync(any SyncTileProvider)
    /// An `AsyncTileProvider`.
    case async(any AsyncTileProvider)

    /// The source as an asynchronous provider (a sync provider is wrapped; see `SyncProviderAdapter`).
    public var asAsync: any AsyncTileProvider {
        switch self {
        case .sync(let provider): return SyncProviderAdapter(provider)
        case .async(let provider): return provider
        }
    }
}

/// Runs a synchronous provider as an asynchronous one (for callers outside the server, which
/// has its own worker pool). The blocking call runs on a Dispatch queue, not on the
/// Swift-concurrency pool.
public struct SyncProviderAdapter: AsyncTileProvider {
    /// The wrapped provider.
    public let provider: any SyncTileProvider

    /// Wraps `provider`.
    public init(_ provider: any SyncTileProvider) {
        self.provider = provider
    }

    public func requestTile(_ request: TileRequest) async throws(TileProviderError) -> TileResult {
        let result: Result<TileResult, TileProviderError> = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: Result { () throws(TileProviderError) -> TileResult in
                    try provider.tile(for: request)
                })
            }
        }
        return try result.get()
    }
}

import Dispatch

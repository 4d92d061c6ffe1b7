/// What a tile was read from, so that a copy kept in a cache can be checked against its source
/// later (SPEC "Freshness": a file or archive changed on disk is served within the layer's
/// `cache.revalidateSeconds`). Made by the provider that read the tile.
public protocol TileValidator: Sendable {
    /// Whether the source still holds the version the tile was read from. May block (a
    /// `stat`): the server calls it on its worker threads.
    func isCurrent() -> Bool

    /// `isCurrent()` if it can be told without waiting (an event loop asks first); nil when it
    /// cannot, and a worker asks `isCurrent()`.
    func isCurrentWithoutWaiting() -> Bool?
}

extension TileValidator {
    /// By default a validator cannot tell without waiting.
    public func isCurrentWithoutWaiting() -> Bool? { nil }
}

/// A synchronous provider whose tiles come from files that may change on disk: it tells what
/// each answer was read from, and checks its files now when asked (a clear-cache or a reload),
/// not only once its own interval has passed.
public protocol VersionedTileProvider: SyncTileProvider {
    /// `tile(for:)`, and the validator of the version it was read from (of the file that did not
    /// hold the tile, for "no tile"); nil when the answer is not kept (an error, "not available").
    func versionedTile(for request: TileRequest) throws(TileProviderError) -> (TileResult, (any TileValidator)?)

    /// Checks the files behind the provider now (blocking: a `stat`, an open when replaced).
    func recheck()
}

extension VersionedTileProvider {
    /// The versioned answer without its validator.
    public func tile(for request: TileRequest) throws(TileProviderError) -> TileResult {
        try versionedTile(for: request).0
    }

    /// Nothing to check beyond what each validator checks.
    public func recheck() {}
}

/// The validator of a tile made from others (a `@2x` from four children, a composite from its
/// members): current while every one of them is.
public struct CombinedValidator: TileValidator {
    /// The validators of the tiles it was made from.
    public let parts: [any TileValidator]

    /// A validator current while all of `parts` are; nil when there are none.
    public static func combining(_ parts: [(any TileValidator)?]) -> (any TileValidator)? {
        let present = parts.compactMap { $0 }
        switch present.count {
        case 0: return nil
        case 1: return present[0]
        default: return CombinedValidator(parts: present)
        }
    }

    public func isCurrent() -> Bool { parts.allSatisfy { $0.isCurrent() } }

    /// False as soon as a part is told not current, nil when a part cannot tell without waiting.
    public func isCurrentWithoutWaiting() -> Bool? {
        var told = true
        for part in parts {
            switch part.isCurrentWithoutWaiting() {
            case false?: return false
            case nil: told = false
            case true?: break
            }
        }
        return told ? true : nil
    }
}

/// An asynchronous provider that tells what each answer was made from (a composite over
/// layers read from files).
public protocol AsyncVersionedTileProvider: AsyncTileProvider {
    /// `requestTile(_:)`, and the validator of what it was made from (nil: nothing to check).
    func versionedTile(_ request: TileRequest) async throws(TileProviderError) -> (TileResult, (any TileValidator)?)
}

extension AsyncVersionedTileProvider {
    /// The versioned answer without its validator.
    public func requestTile(_ request: TileRequest) async throws(TileProviderError) -> TileResult {
        try await versionedTile(request).0
    }
}

extension TileSource {
    /// The source's answer and what it was read from, whichever protocol it speaks (a blocking
    /// provider on `BlockingLanes`, as `SyncProviderAdapter` runs it).
    public func versionedTile(_ request: TileRequest) async throws(TileProviderError) -> (TileResult, (any TileValidator)?) {
        switch self {
        case .sync(let provider as any VersionedTileProvider):
            let result: Result<(TileResult, (any TileValidator)?), TileProviderError> = await withCheckedContinuation { continuation in
                BlockingLanes.run {
                    continuation.resume(returning: Result { () throws(TileProviderError) in try provider.versionedTile(for: request) })
                }
            }
            return try result.get()
        case .async(let provider as any AsyncVersionedTileProvider):
            return try await provider.versionedTile(request)
        default:
            return (try await asAsync.requestTile(request), nil)
        }
    }
}

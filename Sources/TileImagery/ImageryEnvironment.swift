internal import CGDAL
import Foundation
import Synchronization

/// GDAL's process-wide state, set once before any raster opens and again on a reload: drivers
/// registered, messages captured per thread (`GDALMessages`), the block cache bounded
/// (`GDAL_CACHEMAX`), remote reads tuned, and `/vsis3/` pointed at the configured store.
public enum ImageryEnvironment {
    /// GDAL's block cache when the configuration does not say (`server.cache.gdalBytes`).
    public static let defaultCacheBytes = 128 << 20

    private static let registered: Bool = {
        GDALMessages.install()
        GDALAllRegister()
        for (key, value) in fixedOptions { CPLSetConfigOption(key, value) }
        return true
    }()

    private static let applied = Mutex<(ObjectStoreSettings, Int)?>(nil)

    /// Options every read uses: no directory listing of a remote folder at open, no debug or
    /// curl output (which could carry a request's headers), bounded waits on a store.
    static let fixedOptions: [(String, String)] = [
        ("GDAL_DISABLE_READDIR_ON_OPEN", "EMPTY_DIR"),
        ("CPL_DEBUG", "OFF"),
        ("CPL_CURL_VERBOSE", "NO"),
        ("GDAL_HTTP_CONNECTTIMEOUT", "10"),
        ("GDAL_HTTP_TIMEOUT", "30"),
        ("GDAL_HTTP_MERGE_CONSECUTIVE_RANGES", "YES"),
        ("GDAL_HTTP_MULTIPLEX", "YES"),
        ("VSI_CACHE", "FALSE"),
        ("GDAL_PAM_ENABLED", "NO"),
    ]

    /// Sets GDAL up (once), then applies `objectStore` and `cacheBytes` when they differ from
    /// what was applied last.
    public static func configure(objectStore: ObjectStoreSettings = ObjectStoreSettings(), cacheBytes: Int = defaultCacheBytes) {
        _ = registered
        applied.withLock { last in
            if let last, last.0 == objectStore, last.1 == cacheBytes { return }
            GDALSetCacheMax64(GIntBig(cacheBytes))
            for (key, value) in objectStore.gdalOptions(environment: ProcessInfo.processInfo.environment) {
                CPLSetConfigOption(key, value)
            }
            // Cached answers of the old store (existence, sizes, blocks) must not outlive it.
            if last != nil { VSICurlClearCache() }
            last = (objectStore, cacheBytes)
        }
    }

    /// GDAL set up with whatever was configured last (the defaults if nothing was).
    static func ensure() {
        if applied.withLock({ $0 == nil }) { configure() }
    }
}
